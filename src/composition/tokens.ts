export const SQL_DATABASE = Symbol('SqlDatabase');
export const SERVICE_CONFIG = Symbol('ServiceConfig');
export const REACTIONS = Symbol('Reactions');
/** The live provider's adapter (null when LIVE_PROVIDER is unset). */
export const LIVE_PROVIDER = Symbol('LiveProvider');
