import { CHECK_TIMEOUT_MS, NotReady, outcomeOf } from '../../../../../src/interface/http/operations/readiness-check';

describe('a readiness check, as the unauthenticated probe tells it', () => {
  afterEach(() => jest.useRealTimers());

  it('is up when the check answers', async () => {
    expect(await outcomeOf('database', async () => undefined)).toEqual({ status: 'up' });
  });

  it('tells our own reason as it is', async () => {
    const down = await outcomeOf('read_models', async () => {
      throw new NotReady('the read models are 42 s behind the event log (limit 30 s)');
    });
    expect(down).toEqual({ status: 'down', message: 'the read models are 42 s behind the event log (limit 30 s)' });
  });

  it('never repeats a dependency’s own error, which can name hosts, users and databases', async () => {
    const down = await outcomeOf('database', async () => {
      throw new Error('password authentication failed for user "svc_prod" at db-primary.internal:5432');
    });
    expect(down).toEqual({ status: 'down', message: 'does not answer (the service log has the error)' });
    expect(JSON.stringify(down)).not.toMatch(/svc_prod|db-primary/);
  });

  it('counts a check that hangs as down once the timeout has passed', async () => {
    jest.useFakeTimers();
    const pending = outcomeOf('redis', () => new Promise<void>(() => undefined));
    await jest.advanceTimersByTimeAsync(CHECK_TIMEOUT_MS);
    expect(await pending).toEqual({ status: 'down', message: `no answer within ${CHECK_TIMEOUT_MS} ms` });
  });
});
