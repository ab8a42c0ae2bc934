import { responseOutcome } from '../../../../src/interface/cli/response-outcome';

describe('responseOutcome', () => {
  test('2xx JSON goes to stdout unchanged with exit 0', () => {
    expect(responseOutcome(201, '{"amount":"10.10"}\n')).toEqual({
      stream: 'stdout',
      line: '{"amount":"10.10"}',
      exitCode: 0,
    });
  });

  test('error JSON goes to stderr with exit 1', () => {
    expect(responseOutcome(409, '{"error":"invariant_breach","detail":"x","breaches":[]}')).toEqual({
      stream: 'stderr',
      line: '{"error":"invariant_breach","detail":"x","breaches":[]}',
      exitCode: 1,
    });
  });

  test('a 2xx that is not JSON is reported as an error, never printed on stdout', () => {
    expect(responseOutcome(200, '')).toMatchObject({ stream: 'stderr', exitCode: 1 });
    expect(JSON.parse(responseOutcome(200, 'ok').line)).toMatchObject({ error: 'invalid_response' });
  });
});
