import { loadConfig } from '../../../config/load-config';
import { ServiceConfig } from '../../../config/service-config';

/**
 * The service's configuration as the service reads it (EVENT_STORE, DATABASE_URL, EVENTSTORE_CONNECTION_STRING,
 * DATA_DIR), for commands that open the store themselves. They move events and never check a key or a token, so
 * the secrets the service requires outside embedded mode are not asked for (nor generated into DATA_DIR).
 * In embedded mode the server in DATA_DIR/postgres is started by the command (infrastructure/data-move/).
 */
export function storeConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  return loadConfig(
    {
      ...env,
      ...(env.API_KEY_SECRET || env.API_KEY_SECRETS ? {} : { API_KEY_SECRET: 'not-used-by-data-commands-0123456789' }),
      ADMIN_TOKEN: env.ADMIN_TOKEN || 'not-used-by-data-commands-0123456789',
    },
    // `data import DATA_DIR/pglite` is what moves an earlier release's database into the embedded server.
    { acceptEarlierDatabase: true },
  );
}
