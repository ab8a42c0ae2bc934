import { KeyAdmitted } from '../../../src/application/ports/key-admission.port';
import { Environment } from '../../../src/domain/shared/environment';
import { migrateServiceDatabase } from '../../../src/infrastructure/open-database';
import { SqlKeyAdmission } from '../../../src/infrastructure/rate-limit/sql-key-admission';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { SqlExecutor } from '../../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

const now = new Date('2026-11-29T10:00:30.000Z');

/** key hash → what it is: a main key under a partner limit of 3 a minute, a restricted key of its own limit 2, a revoked key, a key of a partner with an IP allowlist (checked outside SQL, so not counted here), an expired key, an unknown hash. */
const KEYS = {
  main: 'hash-main',
  restricted: 'hash-restricted',
  revoked: 'hash-revoked',
  allowlisted: 'hash-allowlisted',
  expired: 'hash-expired',
  unknown: 'hash-unknown',
} as const;

const LOOKUPS: readonly { keyHash: string; environment: Environment }[] = [
  ...Array.from({ length: 4 }, () => ({ keyHash: KEYS.main, environment: 'sandbox' as const })),
  ...Array.from({ length: 3 }, () => ({ keyHash: KEYS.restricted, environment: 'sandbox' as const })),
  { keyHash: KEYS.main, environment: 'live' },
  { keyHash: KEYS.revoked, environment: 'sandbox' },
  { keyHash: KEYS.allowlisted, environment: 'sandbox' },
  { keyHash: KEYS.expired, environment: 'sandbox' },
  { keyHash: KEYS.unknown, environment: 'sandbox' },
];

/**
 * The admission's two statements (one for a batch of lookups on a single key, one for several keys) must decide
 * alike: the same access, the same counted requests and the same rate-limit headers.
 */
describe('key admission, one key at a time or several keys in one statement', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('key_admission_statements');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await migrateServiceDatabase(db);
    await db.query(
      `INSERT INTO rm_partners (partner_id, name, corridor, kyc_status, created_at, updated_at)
       VALUES ('ptr_limited', 'Limited', 'IN', 'approved', $1, $1), ('ptr_other', 'Other', 'IN', 'pending', $1, $1),
              ('ptr_listed', 'Listed', 'IN', 'approved', $1, $1)`,
      [now.toISOString()],
    );
    await db.query(
      `INSERT INTO rm_partner_settings (partner_id, environment, settings, revision, updated_at)
       VALUES ('ptr_limited', 'sandbox', '{"rateLimitPerMinute": 3}', 1, $1),
              ('ptr_listed', 'sandbox', '{"ipAllowlist": ["10.0.0.1"]}', 1, $1)`,
      [now.toISOString()],
    );
    await db.query(
      `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at, kind, label, scope, currency, rate_limit, revoked_at)
       VALUES ($2, 'key_main', 'ptr_limited', 'sandbox', true, $1, 'main', NULL, NULL, NULL, NULL, NULL),
              ($3, 'key_restricted', 'ptr_other', 'sandbox', true, $1, 'restricted', 'bot', 'transact', 'INR', 2, NULL),
              ($4, 'key_revoked', 'ptr_other', 'sandbox', false, $1, 'main', NULL, NULL, NULL, NULL, $1),
              ($5, 'key_listed', 'ptr_listed', 'sandbox', true, $1, 'main', NULL, NULL, NULL, NULL, NULL)`,
      [now.toISOString(), KEYS.main, KEYS.restricted, KEYS.revoked, KEYS.allowlisted],
    );
    await db.query(
      `INSERT INTO rm_api_keys (key_hash, key_id, partner_id, environment, active, issued_at, kind, label, scope, currency, expires_at)
       VALUES ($1, 'key_expired', 'ptr_other', 'sandbox', true, $2, 'restricted', 'old bot', 'transact', 'INR', $2)`,
      [KEYS.expired, new Date(now.getTime() - 1000).toISOString()],
    );
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  /** The admission over the database, and the first words of each statement it sent. */
  const admission = () => {
    const sent: string[] = [];
    const executor: SqlExecutor = {
      query: (text, params) => {
        sent.push(text.trim().split(/\s+/).slice(0, 2).join(' '));
        return db.query(text, params);
      },
    };
    return { admission: new SqlKeyAdmission(executor), sent };
  };

  const oneAtATime = async (): Promise<{ answers: KeyAdmitted[]; sent: string[] }> => {
    await db.query('DELETE FROM rate_limit_buckets');
    const { admission: admit, sent } = admission();
    const answers: KeyAdmitted[] = [];
    for (const { keyHash, environment } of LOOKUPS) answers.push(await admit.lookUp(keyHash, environment, now));
    return { answers, sent };
  };

  const allAtOnce = async (): Promise<{ answers: KeyAdmitted[]; sent: string[] }> => {
    await db.query('DELETE FROM rate_limit_buckets');
    const { admission: admit, sent } = admission();
    const answers = await Promise.all(
      LOOKUPS.map(({ keyHash, environment }) => admit.lookUp(keyHash, environment, now)),
    );
    return { answers, sent };
  };

  it('counts and refuses the same requests, with the same headers, either way', async () => {
    const single = await oneAtATime();
    const batched = await allAtOnce();

    // One statement per lookup, each on one key; then the first lookup alone and the other eleven in one statement.
    expect(single.sent).toEqual(LOOKUPS.map(() => 'WITH access'));
    expect(batched.sent).toEqual(['WITH access', 'WITH lookups']);

    expect(batched.answers).toEqual(single.answers);
    const decisions = single.answers.map(
      (answer) =>
        answer.rateLimit && [
          answer.rateLimit.allowed,
          answer.rateLimit.remaining,
          answer.rateLimit.limit,
          answer.rateLimit.appliesTo,
        ],
    );
    expect(decisions).toEqual([
      [true, 2, 3, 'partner'],
      [true, 1, 3, 'partner'],
      [true, 0, 3, 'partner'],
      [false, 0, 3, 'partner'],
      [true, 1, 2, 'key'],
      [true, 0, 2, 'key'],
      [false, 0, 2, 'key'],
      null, // a sandbox key asked for live
      null, // revoked
      null, // an IP allowlist: decided outside SQL, counted there
      null, // expired
      null, // unknown
    ]);
    expect(single.answers.map((answer) => answer.access?.key.keyId ?? null)).toEqual([
      'key_main',
      'key_main',
      'key_main',
      'key_main',
      'key_restricted',
      'key_restricted',
      'key_restricted',
      'key_main',
      'key_revoked',
      'key_listed',
      'key_expired',
      null,
    ]);
  });
});
