/** When each operator token was last used, for `operator list`. */
export interface OperatorTokenUsage {
  /** A request with the token was let in at `at`: recorded off the request path, a failure only logged. */
  recordUse(operatorId: string, at: Date): void;
  /** The last use of each token of `operatorIds` that has been used. */
  lastUses(operatorIds: readonly string[]): Promise<Map<string, Date>>;
}

export const OPERATOR_TOKEN_USAGE = Symbol('OperatorTokenUsage');
