import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load-config';

const secrets = { API_KEY_SECRET: 'k'.repeat(32), ADMIN_TOKEN: 'a'.repeat(32) };

describe('embedded mode and the data folder of an earlier release', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start on a folder that holds only a PGlite database, naming the import command', () => {
    mkdirSync(join(dataDir, 'pglite'));
    expect(() => loadConfig({ ...secrets, EVENT_STORE: 'embedded', DATA_DIR: dataDir })).toThrow(
      `npm run --silent cli -- data import ${join(dataDir, 'pglite')}`,
    );
  });

  it('starts once the history was imported into the embedded server (DATA_DIR/postgres exists)', () => {
    mkdirSync(join(dataDir, 'pglite'));
    mkdirSync(join(dataDir, 'postgres'));
    expect(loadConfig({ ...secrets, EVENT_STORE: 'embedded', DATA_DIR: dataDir }).eventStore).toBe('embedded');
  });

  it('lets the data commands open such a folder, to import it', () => {
    mkdirSync(join(dataDir, 'pglite'));
    expect(
      loadConfig({ ...secrets, EVENT_STORE: 'embedded', DATA_DIR: dataDir }, { acceptEarlierDatabase: true })
        .eventStore,
    ).toBe('embedded');
  });

  it('does not look at DATA_DIR/pglite outside embedded mode', () => {
    mkdirSync(join(dataDir, 'pglite'));
    expect(
      loadConfig({ ...secrets, EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://db/x', DATA_DIR: dataDir })
        .eventStore,
    ).toBe('postgres');
  });
});
