import { platform } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../../net/free-loopback-port';

export const CLUSTER_USER = 'postgres';

export interface ServerEndpoint {
  description: string;
  connectionString: string;
  socketDir: string | null;
  settings: Record<string, string>;
}

const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes on Linux (104 on macOS), ending with a NUL. */
const MAX_SOCKET_PATH = 103;

/** Settings go as literal `-c name=value`; a Unix socket in DATA_DIR where it fits, else a free loopback port with the cluster's password. */
export async function chooseEndpoint(dataDir: string, password: string): Promise<ServerEndpoint> {
  const socketDir = join(dataDir, 'postgres-socket');
  const socketPath = join(socketDir, `.s.PGSQL.${SOCKET_PORT}`);
  if (platform() !== 'win32' && Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH) {
    return {
      description: `the Unix socket ${socketPath} (no TCP port)`,
      connectionString: embeddedSocketConnectionString(dataDir) ?? '',
      socketDir,
      settings: {
        listen_addresses: '',
        unix_socket_directories: socketDir,
        unix_socket_permissions: '0700',
        port: String(SOCKET_PORT),
      },
    };
  }
  const port = await freeLoopbackPort();
  const why =
    platform() === 'win32'
      ? 'Unix sockets are not used on this platform'
      : `the socket path would exceed ${MAX_SOCKET_PATH} bytes`;
  return {
    description: `127.0.0.1:${port} (loopback only; ${why})`,
    connectionString: `postgresql://${CLUSTER_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    socketDir: null,
    settings: { listen_addresses: '127.0.0.1', unix_socket_directories: '', port: String(port) },
  };
}

/** How a tool on this host reaches a running service's embedded server in `dataDir` through its socket; null on loopback. */
export function embeddedSocketConnectionString(dataDir: string): string | null {
  const socketDir = join(dataDir, 'postgres-socket');
  if (platform() === 'win32' || Buffer.byteLength(join(socketDir, `.s.PGSQL.${SOCKET_PORT}`)) > MAX_SOCKET_PATH)
    return null;
  return `postgresql://${CLUSTER_USER}@/postgres?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
}
