// Duck-typed rather than `instanceof Error`: errors from Node internals can come from another realm (vm, Jest).
const field = (error: unknown, name: string): unknown =>
  typeof error === 'object' && error !== null && name in error ? (error as Record<string, unknown>)[name] : undefined;

export const errorCode = (error: unknown): string | undefined => {
  const code = field(error, 'code');
  return typeof code === 'string' ? code : undefined;
};

export const errorMessage = (error: unknown): string => {
  const message = field(error, 'message');
  return typeof message === 'string' ? message : String(error);
};

export const errorCause = (error: unknown): unknown => field(error, 'cause');
