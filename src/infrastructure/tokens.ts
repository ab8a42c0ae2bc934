export const SQL_DATABASE = Symbol('SqlDatabase');
export const SERVICE_CONFIG = Symbol('ServiceConfig');
export const REACTIONS = Symbol('Reactions');
