import { Writable } from 'node:stream';
import { followRebuild } from '../../../../src/interface/cli/follow-rebuild';
import { FakeAdminService } from '../../../support/fake-admin-service';

class Captured extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

const completed = JSON.stringify({
  rebuild_id: 'rbd_1',
  projection: 'orders',
  state: 'completed',
  phase: 'done',
  events_applied: 4200,
  events_total: 4200,
  events_per_second: 2100,
  eta_seconds: 0,
  version_after: 3,
});

describe('following a rebuild from the CLI', () => {
  let service: FakeAdminService;
  beforeAll(async () => {
    service = await FakeAdminService.start();
  });
  afterAll(async () => {
    await service.close();
  });

  it('on a terminal draws the progress bar on stderr and prints only the result on stdout', async () => {
    const token = service.token({ status: 202, body: completed });
    const stdout = new Captured(true);
    const stderr = new Captured(false);
    const code = await followRebuild(
      service.url,
      token,
      { method: 'POST', path: '/projections/orders/rebuild' },
      { stdout, stderr },
    );
    expect(code).toBe(0);
    expect(stderr.text).toContain(
      'orders [==============================] 100%  4,200/4,200 events  2,100 ev/s  ETA 0:00  done',
    );
    expect(stdout.text).toBe(`${completed}\n`);
    expect(service.requestsFor(token).map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/admin/projections/orders/rebuild',
    ]);
  });

  it('a failed rebuild ends with its record on stderr and exit 1', async () => {
    const failed = JSON.stringify({ ...JSON.parse(completed), state: 'failed', phase: 'building', error: 'boom' });
    const token = service.token({ status: 202, body: failed });
    const stdout = new Captured(false);
    const stderr = new Captured(false);
    expect(
      await followRebuild(
        service.url,
        token,
        { method: 'POST', path: '/projections/orders/rebuild' },
        { stdout, stderr },
      ),
    ).toBe(1);
    expect(stdout.text).toBe('');
    expect(JSON.parse(stderr.text)).toMatchObject({ state: 'failed', error: 'boom' });
  });

  it('a refusal to start is printed as the error it is', async () => {
    const token = service.token({ status: 409, body: '{"error":"invalid_state","detail":"already running"}' });
    const stdout = new Captured(false);
    const stderr = new Captured(false);
    expect(
      await followRebuild(
        service.url,
        token,
        { method: 'POST', path: '/projections/orders/rebuild' },
        { stdout, stderr },
      ),
    ).toBe(1);
    expect(stderr.text).toBe('{"error":"invalid_state","detail":"already running"}\n');
  });
});
