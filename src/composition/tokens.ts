// Tokens of what is bound here and is not a port (a port's token is beside its interface in application/ports/).
// Only composition and tests use them.
export const SQL_DATABASE = Symbol('SqlDatabase');
export const LIVE_PROVIDER = Symbol('LiveProvider');
