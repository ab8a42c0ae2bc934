/** Part of the operator contract: operators' scripts branch on these. */
export const EXIT = {
  ok: 0,
  errorResponse: 1,
  usage: 2,
  unreachable: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
