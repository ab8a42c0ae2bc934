/** Operator tokens are `op_` and 43 base64url characters (32 random bytes). */
export const OPERATOR_TOKEN_PREFIX = 'op_';

const OPERATOR_TOKEN_PATTERN = /^op_[A-Za-z0-9_-]{43}$/;

export const isOperatorTokenShaped = (token: string): boolean => OPERATOR_TOKEN_PATTERN.test(token);

/** A token lives 90 days unless asked otherwise, and never more than 365. */
export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;
