import { loadConfig } from '../../../config/load-config';
import { ServiceConfig } from '../../../config/service-config';

// The configuration as the service reads it, for commands that open the store themselves. They move events and
// check no key or token, so the secrets are not asked for (nor generated). In embedded mode the command starts
// the server in DATA_DIR/postgres.
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
