import { EventEmitter } from 'node:events';
import { Server } from 'node:http';
import { limitConnectionsPerAddress } from '../../../../../src/interface/http/transport/connection-limits';

/** A socket stand-in: its peer address, whether the cap destroyed it, and a way to close it. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const serverWithCap = (max: number, trustedProxies: string[] = []) => {
  const server = new EventEmitter();
  limitConnectionsPerAddress(server as unknown as Server, max, trustedProxies);
  return (address: string) => {
    const socket = new FakeSocket(address);
    server.emit('connection', socket);
    return socket;
  };
};

describe('the connection cap per address, behind a proxy', () => {
  it('closes the connection past the cap from one client address, and takes one again once a place is freed', () => {
    const connect = serverWithCap(2);
    const first = connect('203.0.113.7');
    connect('203.0.113.7');
    expect(connect('203.0.113.7').destroyed).toBe(true);
    expect(connect('198.51.100.1').destroyed).toBe(false);
    first.emit('close');
    expect(connect('203.0.113.7').destroyed).toBe(false);
  });

  it('does not count the connections of a trusted proxy (it carries every client), but still caps anyone else', () => {
    const connect = serverWithCap(2, ['172.30.240.10']);
    for (let i = 0; i < 50; i++) expect(connect('172.30.240.10').destroyed).toBe(false);
    connect('172.30.240.99');
    connect('172.30.240.99');
    expect(connect('172.30.240.99').destroyed).toBe(true);
  });

  it('takes proxies as CIDR ranges and names, as TRUSTED_PROXIES does', () => {
    const connect = serverWithCap(1, ['10.0.0.0/8', 'loopback']);
    for (const address of ['10.1.2.3', '10.1.2.3', '127.0.0.1', '127.0.0.1', '::1', '::1'])
      expect(connect(address).destroyed).toBe(false);
    connect('192.0.2.1');
    expect(connect('192.0.2.1').destroyed).toBe(true);
  });
});
