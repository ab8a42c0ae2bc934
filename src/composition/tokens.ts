export const SQL_DATABASE = Symbol('SqlDatabase');
export const SERVICE_CONFIG = Symbol('ServiceConfig');
export const REACTIONS = Symbol('Reactions');
/** The configured live providers' adapters (LIVE_PROVIDERS / LIVE_PROVIDER; none when unset). */
export const LIVE_PROVIDER = Symbol('LiveProvider');
