import { runPartnerApiFuzz } from '../../support/fuzz/partner-api-fuzz';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

/** A fixed seed in the suite; `npm run fuzz -- --seed <n> --cases <n>` runs longer hunts. */
const SEED = 18;
const CASES = 260;
const REQUEST_TIMEOUT_MS = 5_000;

describe('every partner operation, fuzzed from the served OpenAPI document', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({
      store: 'postgres',
      env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await service.close();
  });

  it(`answers ${CASES} hostile variations of valid requests (seed ${SEED}) below 500, in time, in the Error shape, and moves money only for 200 answers`, async () => {
    const { findings, statuses } = await runPartnerApiFuzz(
      { baseUrl: service.url, adminToken: TEST_ADMIN_TOKEN, requestTimeoutMs: REQUEST_TIMEOUT_MS },
      SEED,
      CASES,
    );
    expect(findings).toEqual([]);
    // The run reached the business rules, not only the gate: some requests were accepted and many refused.
    expect(statuses[200]).toBeGreaterThan(10);
    expect(statuses[400]).toBeGreaterThan(50);
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true });
  }, 120_000);
});
