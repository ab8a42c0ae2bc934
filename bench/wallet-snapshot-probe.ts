/**
 * What a wallet snapshot saves a cold wallet: on a fresh database, gives one wallet a history of `events`
 * events, takes its snapshot `behind` events before the end (the most a lane lets it fall behind is
 * WALLET_SNAPSHOT_EVERY − 1), then loads the wallet as a process's first command does, in alternating
 * rounds: the whole stream folded, and the snapshot with the events from its revision on. Reports the
 * events read and the time of each load (median and range). A probe of one function, not a timed test.
 *   npx tsx bench/wallet-snapshot-probe.ts [events=100000] [behind=999] [rounds=5]
 */
import { Logger } from '@nestjs/common';
import { NO_WALLET_SNAPSHOTS } from '../src/application/ports/wallet-snapshots.port';
import { WalletCommandProcessor } from '../src/application/wallets/wallet-command-processor';
import { LoadedWallet, WalletSnapshotting, sealedSnapshotOf } from '../src/application/wallets/wallet-snapshotting';
import { metadata } from '../src/application/shared/event-envelope';
import { Money } from '../src/domain/money/money';
import { walletStream, walletStreamId } from '../src/domain/wallet/wallet.stream';
import { SqlEventStore } from '../src/infrastructure/event-store/sql-event-store';
import { migrateServiceDatabase } from '../src/infrastructure/open-database';
import { PostgresDatabase } from '../src/infrastructure/sql/postgres-database';
import { SqlWalletSnapshots } from '../src/infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { HmacSnapshotSeal } from '../src/infrastructure/security/hmac-snapshot-seal';
import { createDatabase } from './lib/environment';
import { median } from './lib/interleaved-pairs';
import { seedWalletHistory } from './lib/seed-history';
import { LOG_EVENT_DECODER } from '../src/application/ports/event-decoder.port';

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 100_000);
  const behind = Number(process.argv[3] ?? 999);
  const rounds = Number(process.argv[4] ?? 5);
  Logger.overrideLogger(['error']);
  const database = await createDatabase();
  const db = new PostgresDatabase({ connectionString: database.url, maxConnections: 4 });
  try {
    await migrateServiceDatabase(db);
    const store = new SqlEventStore(db, LOG_EVENT_DECODER);
    const snapshots = new SqlWalletSnapshots(db);
    const seal = new HmacSnapshotSeal('wallet-snapshot-probe-secret-0123456789abcdef');
    const partnerId = 'ptn_snapshot_probe';
    const streamId = walletStreamId(partnerId, 'sandbox');
    const amount = Money.parse('1.00', 'INR');
    if (!amount) throw new Error('amount');
    const at = new Date();
    await new WalletCommandProcessor(store).execute(partnerId, 'sandbox', {
      command: {
        type: 'CreditWallet',
        creditId: 'crd_probe',
        amount,
        kind: 'funding',
        reference: 'probe',
        at: at.toISOString(),
      },
      eventId: '00000000-0000-4000-8000-000000000001',
      metadata: metadata({
        partnerId,
        environment: 'sandbox',
        correlationId: 'crd_probe',
        actor: { type: 'system', id: 'probe' },
        at,
      }),
    });
    await seedWalletHistory(db, partnerId, events - 1 - behind);
    // A cold load of more than WALLET_SNAPSHOT_EVERY events takes the snapshot; saved directly here to await it.
    const whole = await new WalletSnapshotting(store, NO_WALLET_SNAPSHOTS, Number.MAX_SAFE_INTEGER).load(
      walletStream(partnerId, 'sandbox'),
    );
    if (whole.eventId === null) throw new Error('no events');
    await snapshots.save(
      streamId,
      sealedSnapshotOf(streamId, { state: whole.state, revision: whole.revision, eventId: whole.eventId }, seal),
    );
    if (behind > 0) await seedWalletHistory(db, partnerId, behind);

    const loads = {
      whole: () =>
        new WalletSnapshotting(store, NO_WALLET_SNAPSHOTS, Number.MAX_SAFE_INTEGER).load(
          walletStream(partnerId, 'sandbox'),
        ),
      snapshot: () =>
        new WalletSnapshotting(store, snapshots, Number.MAX_SAFE_INTEGER, seal).load(
          walletStream(partnerId, 'sandbox'),
        ),
    };
    const times: Record<keyof typeof loads, number[]> = { whole: [], snapshot: [] };
    const read: Record<keyof typeof loads, number> = { whole: 0, snapshot: 0 };
    const results: LoadedWallet[] = [];
    for (let round = 0; round < rounds; round++) {
      const order: (keyof typeof loads)[] = round % 2 === 0 ? ['whole', 'snapshot'] : ['snapshot', 'whole'];
      for (const which of order) {
        const started = process.hrtime.bigint();
        const loaded = await loads[which]();
        times[which].push(Number(process.hrtime.bigint() - started) / 1e6);
        read[which] = loaded.revision - (which === 'whole' ? -1 : loaded.snapshotRevision - 1);
        results.push(loaded);
      }
    }
    const balances = new Set(results.map((loaded) => `${loaded.revision} ${loaded.state.balanceMinor}`));
    if (balances.size !== 1) throw new Error(`the loads disagree: ${[...balances].join(', ')}`);
    for (const which of Object.keys(loads) as (keyof typeof loads)[]) {
      const sorted = [...times[which]].sort((a, b) => a - b);
      console.log(
        `${which.padEnd(8)} ${String(read[which]).padStart(7)} events read, ` +
          `${median(sorted).toFixed(1)} ms median (${sorted[0].toFixed(1)}–${sorted[sorted.length - 1].toFixed(1)}) over ${rounds} loads`,
      );
    }
  } finally {
    await db.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
