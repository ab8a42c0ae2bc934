/**
 * Starting a service (Nest, migrations, an in-memory PGlite or a fresh PostgreSQL database)
 * takes a few seconds, and far longer on a busy machine; the default 30 s test timeout is
 * meant for the tests, not for this one-off start.
 */
export const SERVICE_START_TIMEOUT_MS = 120_000;
