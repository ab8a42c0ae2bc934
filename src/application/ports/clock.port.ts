/** The only source of time in the service; tests inject a clock they move by hand. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('Clock');
