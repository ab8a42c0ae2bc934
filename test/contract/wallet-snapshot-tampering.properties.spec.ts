import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { NO_WALLET_SNAPSHOTS } from '../../src/application/ports/wallet-snapshots.port';
import { metadata } from '../../src/application/shared/event-envelope';
import { WalletCommandEnvelope, WalletCommandProcessor } from '../../src/application/wallets/wallet-command-processor';
import { WalletSnapshotting } from '../../src/application/wallets/wallet-snapshotting';
import { Money } from '../../src/domain/money/money';
import { keyCapsOf } from '../../src/domain/partner/scoped-key';
import { WalletCommand, WalletState, walletDecider } from '../../src/domain/wallet/wallet.decider';
import { walletStream, walletStreamId } from '../../src/domain/wallet/wallet.stream';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { migrateServiceDatabase } from '../../src/infrastructure/open-database';
import { HmacSnapshotSeal } from '../../src/infrastructure/security/hmac-snapshot-seal';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlWalletSnapshots } from '../../src/infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';
import { waitForAsync } from '../support/wait-for';
import { LOG_EVENT_DECODER } from '../../src/application/ports/event-decoder.port';

/**
 * Whatever someone with write access to the database writes into a wallet's snapshot row, every
 * decision on the wallet — the balance after a debit, 402 insufficient_balance, 403
 * key_cap_exceeded — is the one the whole fold of the log gives. Histories are random (credits,
 * debits by two restricted keys and the main key, refunds, over some thirty hours, so that older
 * spends leave the 24-hour window), and so is the tampering of the row (its state, spends,
 * balance, revision, event, fold version, seal), on the real table in PostgreSQL.
 */
const EVERY = 3;
const SECRET = 'wallet-snapshot-tampering-secret-0123456789abcdef';
const START = Date.parse('2026-06-01T00:00:00.000Z');
const HOUR = 3_600_000;
const KEYS = ['key_alpha', 'key_beta'] as const;
const DAILY_MAX = { key_alpha: '300.00', key_beta: '150.00' } as const;

beforeAll(() => Logger.overrideLogger(false));

const inr = (minor: number): Money => Money.ofMinor(BigInt(minor), 'INR');

type Step =
  | { kind: 'debit'; key: (typeof KEYS)[number] | null; minor: number; hoursLater: number }
  | { kind: 'credit'; minor: number; hoursLater: number }
  | { kind: 'refund'; which: number; hoursLater: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('debit' as const),
      key: fc.constantFrom(...KEYS, null),
      minor: fc.integer({ min: 100, max: 12_000 }),
      hoursLater: fc.integer({ min: 0, max: 5 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('credit' as const),
      minor: fc.integer({ min: 100, max: 50_000 }),
      hoursLater: fc.integer({ min: 0, max: 5 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      which: fc.nat(),
      hoursLater: fc.integer({ min: 0, max: 5 }),
    }),
  },
);

/** A change someone could write into the row, as SQL over it (`$2`: another wallet's stream). */
const tampering = fc.oneof(
  fc.constant(`state = jsonb_set(state, '{keySpends}', '[]')`),
  fc.constant(`state = jsonb_set(state, '{keySpends}', (state -> 'keySpends') - 0)`),
  fc.constant(
    `state = jsonb_set(state, '{keySpends}', coalesce((SELECT jsonb_agg(jsonb_set(s, '{minor}', '"1"')) FROM jsonb_array_elements(state -> 'keySpends') s), '[]'))`,
  ),
  fc.constant(
    `state = jsonb_set(state, '{keySpends}', coalesce((SELECT jsonb_agg(jsonb_set(s, '{placedAt}', '"2020-01-01T00:00:00.000Z"')) FROM jsonb_array_elements(state -> 'keySpends') s), '[]'))`,
  ),
  fc.constant(
    `state = jsonb_set(state, '{keySpends}', coalesce((SELECT jsonb_agg(jsonb_set(s, '{keyId}', '"key_other"')) FROM jsonb_array_elements(state -> 'keySpends') s), '[]'))`,
  ),
  fc
    .integer({ min: -100_000, max: 100_000 })
    .map(
      (delta) =>
        `state = jsonb_set(state, '{balanceMinor}', to_jsonb(((state ->> 'balanceMinor')::bigint + ${delta})::text))`,
    ),
  fc.integer({ min: -2, max: 2 }).map((delta) => `revision = greatest(revision + ${delta}, 0)`),
  fc.constant(`event_id = gen_random_uuid()`),
  fc.constant(`fold_version = fold_version + 1`),
  fc.constant(`seal = NULL`),
  fc.constant(`seal = 'v1.' || repeat('0', 64)`),
  fc.constant(`seal = (SELECT seal FROM wallet_snapshots o WHERE o.stream_id = $2)`),
  fc.constant(
    `state = (SELECT state FROM wallet_snapshots o WHERE o.stream_id = $2), seal = (SELECT seal FROM wallet_snapshots o WHERE o.stream_id = $2)`,
  ),
  fc.constant(
    `state = jsonb_set(state, '{keySpends}', '[]'), seal = 'v1.' || encode(sha256(convert_to(state::text, 'UTF8')), 'hex')`,
  ),
  fc.constant(`taken_at = now()`),
);

/** A decision as the API would answer it: the balance after, or the refusal's code. */
const decisionOf = (command: WalletCommand, state: WalletState): string => {
  const decision = walletDecider.decide(command, state);
  if (!decision.ok) return `refused ${decision.error.code}`;
  const [event] = decision.events;
  return `accepted ${event.data.balanceAfter}`;
};

describe('a tampered wallet snapshot decides nothing', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  let store: SqlEventStore;
  let snapshots: SqlWalletSnapshots;
  const seal = new HmacSnapshotSeal(SECRET);

  beforeAll(async () => {
    database = await createTestDatabase('snapshot_tampering');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await migrateServiceDatabase(db);
    store = new SqlEventStore(db, LOG_EVENT_DECODER);
    snapshots = new SqlWalletSnapshots(db);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
    await database.drop();
  });

  const envelope = (partnerId: string, command: WalletCommand, at: Date): WalletCommandEnvelope => ({
    command,
    eventId: randomUUID(),
    metadata: metadata({
      partnerId,
      environment: 'sandbox',
      correlationId: randomUUID(),
      actor: { type: 'system', id: 'test' },
      at,
    }),
  });

  /**
   * Runs the history through a lane that takes (sealed) snapshots; returns once its last one is
   * stored, with the time the history ends and that snapshot's revision (-1: none).
   */
  async function written(partnerId: string, steps: readonly Step[]): Promise<{ end: number; snapshot: number }> {
    const lane = new WalletCommandProcessor(store, snapshots, EVERY, seal);
    let at = START;
    const run = (command: WalletCommand) =>
      lane.execute(partnerId, 'sandbox', envelope(partnerId, command, new Date(at)));
    await run({
      type: 'CreditWallet',
      creditId: randomUUID(),
      amount: inr(100_000),
      kind: 'funding',
      reference: 'start',
      at: new Date(at).toISOString(),
    });
    const debits: { orderId: string; minor: number; refunded: boolean }[] = [];
    let appended = 1;
    for (const next of steps) {
      at += next.hoursLater * HOUR + 60_000;
      const iso = new Date(at).toISOString();
      if (next.kind === 'credit') {
        await run({
          type: 'CreditWallet',
          creditId: randomUUID(),
          amount: inr(next.minor),
          kind: 'funding',
          reference: 'c',
          at: iso,
        });
        appended += 1;
      } else if (next.kind === 'debit') {
        const orderId = `ord_${randomUUID()}`;
        const caps = next.key ? keyCapsOf(next.key, null, DAILY_MAX[next.key], 'INR') : null;
        const result = await run({
          type: 'DebitWallet',
          orderId,
          amount: inr(next.minor),
          reference: null,
          idempotencyKey: `key-${orderId}`,
          product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
          keyCaps: caps,
          at: iso,
        });
        if (result.ok) {
          debits.push({ orderId, minor: next.minor, refunded: false });
          appended += 1;
        }
      } else {
        const open = debits.filter((debit) => !debit.refunded);
        if (open.length === 0) continue;
        const debit = open[next.which % open.length];
        debit.refunded = true;
        await run({
          type: 'RefundWallet',
          orderId: debit.orderId,
          amount: inr(debit.minor),
          reason: 'failed',
          at: iso,
        });
        appended += 1;
      }
    }
    const lastSnapshot = Math.floor(appended / EVERY) * EVERY - 1;
    const stream = walletStreamId(partnerId, 'sandbox');
    if (lastSnapshot >= 0)
      await waitForAsync(async () => ((await snapshots.latest(stream))?.revision ?? -1) >= lastSnapshot, {
        what: `the snapshot at revision ${lastSnapshot}`,
      });
    return { end: at, snapshot: lastSnapshot };
  }

  it('every decision equals the whole fold’s, whatever is written into the row', async () => {
    // A second wallet whose row the tampering may copy from.
    const donor = `ptn_${randomUUID()}`;
    await written(donor, [
      { kind: 'debit', key: 'key_alpha', minor: 5_000, hoursLater: 0 },
      { kind: 'debit', key: 'key_beta', minor: 5_000, hoursLater: 0 },
      { kind: 'debit', key: null, minor: 5_000, hoursLater: 0 },
    ]);
    let untouchedUsed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 3, maxLength: 14 }),
        fc.array(tampering, { minLength: 0, maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom(...KEYS, null), fc.integer({ min: 1, max: 40_000 })), {
          minLength: 3,
          maxLength: 6,
        }),
        async (steps, changes, probes) => {
          const partnerId = `ptn_${randomUUID()}`;
          const stream = walletStreamId(partnerId, 'sandbox');
          const { end, snapshot } = await written(partnerId, steps);
          for (const change of changes) {
            // A change the table refuses (a revision out of range) is one the attacker cannot make.
            await db
              .query(`UPDATE wallet_snapshots SET ${change} WHERE stream_id = $1 AND $2::text IS NOT NULL`, [
                stream,
                walletStreamId(donor, 'sandbox'),
              ])
              .catch(() => undefined);
          }
          // A process that has not loaded the wallet (a restart), and the whole fold of the log.
          const loaded = await new WalletSnapshotting(store, snapshots, Number.MAX_SAFE_INTEGER, seal).load(
            walletStream(partnerId, 'sandbox'),
          );
          const whole = await new WalletSnapshotting(store, NO_WALLET_SNAPSHOTS, Number.MAX_SAFE_INTEGER).load(
            walletStream(partnerId, 'sandbox'),
          );
          // Untouched, the snapshot is used: what is compared below is a snapshot's decisions, not two whole folds.
          if (changes.length === 0 && snapshot >= 0) {
            expect(loaded.snapshotRevision).toBe(snapshot);
            untouchedUsed += 1;
          }
          expect(loaded.revision).toBe(whole.revision);
          const at = new Date(end + 60_000).toISOString();
          for (const [key, minor] of probes) {
            const orderId = `ord_${randomUUID()}`;
            const command: WalletCommand = {
              type: 'DebitWallet',
              orderId,
              amount: inr(minor),
              reference: null,
              idempotencyKey: `key-${orderId}`,
              product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
              keyCaps: key ? keyCapsOf(key, null, DAILY_MAX[key], 'INR') : null,
              at,
            };
            expect(decisionOf(command, loaded.state)).toBe(decisionOf(command, whole.state));
          }
          // And the balance as a whole, and the cap's exact edge for each key.
          expect(loaded.state.balanceMinor).toBe(whole.state.balanceMinor);
          for (const key of KEYS) {
            const left = keyCapsOf(key, null, DAILY_MAX[key], 'INR').dailyMax?.minor ?? 0n;
            for (const minor of [1n, left]) {
              const orderId = `ord_${randomUUID()}`;
              const command: WalletCommand = {
                type: 'DebitWallet',
                orderId,
                amount: Money.ofMinor(minor, 'INR'),
                reference: null,
                idempotencyKey: `key-${orderId}`,
                product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
                keyCaps: keyCapsOf(key, null, DAILY_MAX[key], 'INR'),
                at,
              };
              expect(decisionOf(command, loaded.state)).toBe(decisionOf(command, whole.state));
            }
          }
        },
      ),
      { seed: 28, numRuns: 40 },
    );
    expect(untouchedUsed).toBeGreaterThan(0);
  }, 240_000);

  it('an untouched snapshot is used (the property is not vacuous)', async () => {
    const partnerId = `ptn_${randomUUID()}`;
    await written(partnerId, [
      { kind: 'debit', key: 'key_alpha', minor: 10_000, hoursLater: 0 },
      { kind: 'debit', key: 'key_alpha', minor: 10_000, hoursLater: 1 },
      { kind: 'debit', key: 'key_beta', minor: 5_000, hoursLater: 1 },
      { kind: 'debit', key: null, minor: 5_000, hoursLater: 1 },
      { kind: 'debit', key: 'key_alpha', minor: 5_000, hoursLater: 1 },
    ]);
    const stream = walletStreamId(partnerId, 'sandbox');
    const loaded = await new WalletSnapshotting(store, snapshots, Number.MAX_SAFE_INTEGER, seal).load(
      walletStream(partnerId, 'sandbox'),
    );
    expect(loaded.snapshotRevision).toBe(5);
    expect(loaded.state.keySpends.filter((spend) => spend.keyId === 'key_alpha')).toHaveLength(3);
    // Emptied spends: ignored, and the daily cap of key_alpha (300.00, 250.00 spent) still refuses 50.01.
    await db.query(`UPDATE wallet_snapshots SET state = jsonb_set(state, '{keySpends}', '[]') WHERE stream_id = $1`, [
      stream,
    ]);
    const tampered = await new WalletSnapshotting(store, snapshots, Number.MAX_SAFE_INTEGER, seal).load(
      walletStream(partnerId, 'sandbox'),
    );
    expect(tampered.snapshotRevision).toBe(-1);
    const overCap: WalletCommand = {
      type: 'DebitWallet',
      orderId: 'ord_over_cap',
      amount: inr(5_001),
      reference: null,
      idempotencyKey: 'key-ord_over_cap',
      product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
      keyCaps: keyCapsOf('key_alpha', null, DAILY_MAX.key_alpha, 'INR'),
      at: new Date(START + 5 * HOUR).toISOString(),
    };
    expect(decisionOf(overCap, tampered.state)).toBe('refused key_cap_exceeded');
  });
});
