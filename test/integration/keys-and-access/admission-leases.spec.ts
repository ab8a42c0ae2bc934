import { KeyAdmission, KeyAdmitted } from '../../../src/application/ports/key-admission.port';
import { Environment } from '../../../src/domain/shared/environment';
import { migrateServiceDatabase } from '../../../src/infrastructure/open-database';
import { LeasedKeyAdmission, leaseCap } from '../../../src/infrastructure/rate-limit/leased-key-admission';
import { SqlKeyAdmission } from '../../../src/infrastructure/rate-limit/sql-key-admission';
import { SqlReadModels } from '../../../src/infrastructure/read-models/sql-read-models';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

const now = new Date('2026-11-30T10:00:30.000Z');
const LEASE_MS = 1000;
/** 600 a minute: a lease holds at most 6 spare tokens (1 % of the limit). */
const BUSY = { hash: 'hash-busy', partnerId: 'ptr_busy', limit: 600 };
/** The default 60 a minute: too few to lease. */
const QUIET = { hash: 'hash-quiet', partnerId: 'ptr_quiet' };

/** The SQL admission, counting the statements it sends. */
class CountedAdmission implements KeyAdmission {
  statements = 0;
  constructor(private readonly sql: SqlKeyAdmission) {}
  lookUp(keyHash: string, environment: Environment, at: Date, spare?: number): Promise<KeyAdmitted> {
    this.statements += 1;
    return this.sql.lookUp(keyHash, environment, at, spare);
  }
}

/** Monotonic time a test moves, and the waits a release asked for (which move it). */
class TestTicks {
  value = 0;
  waits: number[] = [];
  readonly ticks = (): number => this.value;
  readonly wait = (ms: number): Promise<void> => {
    this.waits.push(ms);
    this.value += ms;
    return Promise.resolve();
  };
}

describe('admission leases: a busy key admitted from tokens taken ahead (decision 0161)', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('admission_leases');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 6 });
    await migrateServiceDatabase(db);
    await db.query(
      `INSERT INTO rm_partners (partner_id, name, corridor, kyc_status, created_at, updated_at)
       VALUES ($2, 'Busy', 'IN', 'approved', $1, $1), ($3, 'Quiet', 'IN', 'approved', $1, $1)`,
      [now.toISOString(), BUSY.partnerId, QUIET.partnerId],
    );
    await db.query(
      `INSERT INTO rm_partner_settings (partner_id, environment, settings, revision, updated_at)
       VALUES ($2, 'sandbox', jsonb_build_object('rateLimitPerMinute', $3::integer), 1, $1)`,
      [now.toISOString(), BUSY.partnerId, BUSY.limit],
    );
    await db.query(
      `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at, kind)
       VALUES ($2, 'key_busy', $3, 'sandbox', true, $1, 'main'), ($4, 'key_quiet', $5, 'sandbox', true, $1, 'main')`,
      [now.toISOString(), BUSY.hash, BUSY.partnerId, QUIET.hash, QUIET.partnerId],
    );
  });

  beforeEach(async () => {
    await db.query('DELETE FROM rate_limit_buckets');
    await db.query('UPDATE rm_api_keys SET active = true');
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const leased = (time = new TestTicks()) => {
    const counted = new CountedAdmission(new SqlKeyAdmission(db));
    const readModels = new SqlReadModels(db);
    const admission = new LeasedKeyAdmission(counted, {
      leaseMs: LEASE_MS,
      limitOf: async (partnerId, environment) =>
        (await readModels.partnerSettings(partnerId, environment)).rateLimitPerMinute,
      ticks: time.ticks,
      wait: time.wait,
    });
    return { admission, counted, time };
  };

  const inTurn = async (admission: KeyAdmission, hash: string, requests: number, at = now): Promise<KeyAdmitted[]> => {
    const answers: KeyAdmitted[] = [];
    for (let request = 0; request < requests; request++) answers.push(await admission.lookUp(hash, 'sandbox', at));
    return answers;
  };

  const headersOf = (answers: readonly KeyAdmitted[]) =>
    answers.map((answer) => answer.rateLimit && [answer.rateLimit.allowed, answer.rateLimit.remaining]);

  it('answers a busy key with the decisions one statement per request would give, in fewer statements', async () => {
    const plain = new CountedAdmission(new SqlKeyAdmission(db));
    const oneEach = await inTurn(plain, BUSY.hash, 30);
    await db.query('DELETE FROM rate_limit_buckets');
    const { admission, counted } = leased();
    const fromLeases = await inTurn(admission, BUSY.hash, 30);

    expect(headersOf(fromLeases)).toEqual(headersOf(oneEach));
    expect(fromLeases.map((answer) => answer.access?.key.keyId)).toEqual(oneEach.map(() => 'key_busy'));
    expect(plain.statements).toBe(30);
    // The lease grows with the key's use, to 6 spare tokens: one statement for every 7 requests once it has.
    expect(counted.statements).toBeLessThanOrEqual(10);
    expect(leaseCap(BUSY.limit, LEASE_MS)).toBe(6);
  });

  it('never admits more than the limit, the tokens of a lease included', async () => {
    const { admission } = leased();
    const answers = await inTurn(admission, BUSY.hash, BUSY.limit + 50);
    const allowed = answers.filter((answer) => answer.rateLimit?.allowed).length;
    expect(allowed).toBe(BUSY.limit);
    expect(answers.slice(0, BUSY.limit).every((answer) => answer.rateLimit?.allowed)).toBe(true);
  });

  it('takes at most one lease at a time for a key, however many of its requests arrive together', async () => {
    const { admission } = leased();
    await inTurn(admission, BUSY.hash, 10);
    const together = await Promise.all(Array.from({ length: 40 }, () => admission.lookUp(BUSY.hash, 'sandbox', now)));
    expect(together.every((answer) => answer.rateLimit?.allowed)).toBe(true);
    // A plain request now says how many tokens the 50 requests took: theirs and at most one lease's spares.
    const [after] = await inTurn(new SqlKeyAdmission(db), BUSY.hash, 1);
    const taken = BUSY.limit - 1 - (after.rateLimit?.remaining ?? 0);
    expect(taken).toBeGreaterThanOrEqual(50);
    expect(taken).toBeLessThanOrEqual(50 + leaseCap(BUSY.limit, LEASE_MS));
  });

  it('goes back to the database once a lease is as old as its time, or the service clock has moved past it', async () => {
    const { admission, counted, time } = leased();
    await inTurn(admission, BUSY.hash, 10);
    const before = counted.statements;
    time.value += LEASE_MS;
    await inTurn(admission, BUSY.hash, 1);
    expect(counted.statements).toBe(before + 1);

    await inTurn(admission, BUSY.hash, 5);
    const settled = counted.statements;
    await inTurn(admission, BUSY.hash, 1, new Date(now.getTime() + LEASE_MS));
    expect(counted.statements).toBe(settled + 1);
  });

  it('never leases a key at the default limit: each of its requests is a statement', async () => {
    const { admission, counted } = leased();
    const answers = await inTurn(admission, QUIET.hash, 10);
    expect(counted.statements).toBe(10);
    expect(headersOf(answers).map((header) => header?.[1])).toEqual([59, 58, 57, 56, 55, 54, 53, 52, 51, 50]);
  });

  it('a release ends the leases of every process before it returns: a revoked key is refused on the next request anywhere', async () => {
    const shared = new TestTicks();
    const servingProcess = leased(shared);
    const revokingProcess = leased(shared);
    await inTurn(servingProcess.admission, BUSY.hash, 10);
    await inTurn(revokingProcess.admission, BUSY.hash, 10);

    await db.query(`UPDATE rm_api_keys SET active = false WHERE key_id = 'key_busy'`);
    await revokingProcess.admission.release(BUSY.partnerId, 'sandbox');

    expect(shared.waits).toEqual([LEASE_MS]);
    for (const process of [servingProcess, revokingProcess]) {
      const [next] = await inTurn(process.admission, BUSY.hash, 1);
      expect(next.rateLimit).toBeNull();
      expect(next.access?.key.active).toBe(false);
    }
  });

  it('a release waits for nothing when no lease can admit too much: a limit too low to lease, or a raised limit', async () => {
    const { admission, time } = leased();
    await admission.release(QUIET.partnerId, 'sandbox');
    await admission.release(BUSY.partnerId, 'sandbox', { before: 600, after: 100_000 });
    expect(time.waits).toEqual([]);
    await admission.release(QUIET.partnerId, 'sandbox', { before: 100_000, after: 60 });
    await admission.release(BUSY.partnerId, 'sandbox');
    expect(time.waits).toEqual([LEASE_MS, LEASE_MS]);
  });
});
