import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFlagsWarning, SERVICE_NODE_FLAGS } from '../../../src/composition/service/node-flags';

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

describe('the service process node flags (decision 0175)', () => {
  it('warn at start-up when node was started without them, naming the flag and how to start it', () => {
    const warning = nodeFlagsWarning(['--enable-source-maps']);
    expect(warning).toContain('started without --no-memory-reducer');
    expect(warning).toContain('`node --no-memory-reducer dist/main.js`');
    expect(nodeFlagsWarning(['--no-memory-reducer', '--enable-source-maps'])).toBeNull();
    expect(nodeFlagsWarning(['--no_memory_reducer'])).toBeNull();
  });

  it('warn when a later --memory-reducer turns the reducer back on, as V8 takes the last', () => {
    expect(nodeFlagsWarning(['--no-memory-reducer', '--memory-reducer'])).toContain(
      'started without --no-memory-reducer',
    );
    expect(nodeFlagsWarning(['--memory-reducer', '--no-memory-reducer'])).toBeNull();
  });

  it('is shown in docs/operations.md as the service prints it', () => {
    expect(read('docs/operations.md')).toContain(nodeFlagsWarning([]));
  });

  it('are passed by npm start and by the Docker image before dist/main.js', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(SERVICE_NODE_FLAGS).toContain('--no-memory-reducer');
    expect(start).toContain(`node ${[...SERVICE_NODE_FLAGS, 'dist/main.js'].join(' ')}`);
    const cmd = read('docker/Dockerfile')
      .split('\n')
      .filter((line) => line.startsWith('CMD '))
      .at(-1);
    expect(cmd).toBe(`CMD ${JSON.stringify(['node', ...SERVICE_NODE_FLAGS, 'dist/main.js'])}`.replace(/","/g, '", "'));
  });
});
