import { DomainError } from '../../domain/shared/domain-error';
import { Environment } from '../../domain/shared/environment';
import { WalletCommand, WalletState, walletDecider } from '../../domain/wallet/wallet.decider';
import { EventStream } from '../../domain/shared/event-types';
import { WalletEvent } from '../../domain/wallet/wallet.events';
import { walletStream } from '../../domain/wallet/wallet.stream';
import {
  DuplicateEventIdError,
  EventMetadata,
  EventStore,
  GlobalPosition,
  WrongExpectedRevisionError,
} from '../ports/event-store.port';
import {
  IdempotencyKeyTakenError,
  KeyBinding,
  KeyBindingAppend,
  OpenedStream,
  keyBindingId,
} from '../ports/key-binding-append.port';
import {
  DEFAULT_WALLET_SNAPSHOT_EVERY,
  NO_SNAPSHOT_SEAL,
  NO_WALLET_SNAPSHOTS,
  SnapshotSeal,
  WalletSnapshots,
} from '../ports/wallet-snapshots.port';
import { envelope } from '../shared/event-envelope';
import { WalletSnapshotting } from './wallet-snapshotting';
import { FoldedWallet, foldFromLog } from './wallet-fold';

export interface WalletCommandEnvelope {
  command: WalletCommand;
  eventId: string;
  metadata: EventMetadata;
  /**
   * The Idempotency-Key the command's event binds in the same commit (stores that bind keys: the
   * processor is then given their KeyBindingAppend), made from the event as decided. If the key is bound already, the command is rejected with
   * IdempotencyKeyTakenError and nothing of it is written.
   */
  keyFor?: (event: WalletEvent) => KeyBinding;
  /**
   * Streams the command's event opens in the same commit (an order answered at placement), made from the event as
   * decided; only with `keyFor`, through the store's KeyBindingAppend.
   */
  opens?: (event: WalletEvent) => readonly OpenedStream[];
}

export type WalletCommandResult =
  | { ok: true; event: WalletEvent; position: GlobalPosition | null; deduplicated: boolean }
  | { ok: false; error: DomainError };

interface Pending {
  envelope: WalletCommandEnvelope;
  resolve(result: WalletCommandResult): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 256;
const MAX_ATTEMPTS = 20;

/**
 * Runs wallet commands one wallet at a time in this process: commands queued behind an append are decided and
 * written together. The state is cached with its revision; another process's write shows as a revision conflict,
 * after which only the new events are read.
 */
export class WalletCommandProcessor {
  private readonly lanes = new Map<string, WalletLane>();
  private readonly snapshotting: WalletSnapshotting;

  constructor(
    private readonly store: EventStore,
    snapshots: WalletSnapshots = NO_WALLET_SNAPSHOTS,
    snapshotEvery = DEFAULT_WALLET_SNAPSHOT_EVERY,
    /** Seals the snapshots taken and verifies those loaded; without one, no snapshot is trusted. */
    seal: SnapshotSeal = NO_SNAPSHOT_SEAL,
    /** Where the store binds Idempotency-Keys in the commit of its events (the SQL stores): commands with `keyFor` append through it. */
    private readonly keyBinding: KeyBindingAppend | null = null,
  ) {
    this.snapshotting = new WalletSnapshotting(store, snapshots, snapshotEvery, seal);
  }

  execute(partnerId: string, environment: Environment, envelope: WalletCommandEnvelope): Promise<WalletCommandResult> {
    const stream = walletStream(partnerId, environment);
    let lane = this.lanes.get(stream.id);
    if (!lane) {
      lane = new WalletLane(stream, this.store, this.snapshotting, this.keyBinding);
      this.lanes.set(stream.id, lane);
    }
    return lane.enqueue(envelope);
  }

  /**
   * The wallet as it is now (the cached state brought up to date, nothing written): what a dry run
   * decides against, and what a key's spend is read from.
   */
  current(partnerId: string, environment: Environment): Promise<WalletState> {
    const lane = this.lanes.get(walletStream(partnerId, environment).id);
    return lane ? lane.current() : this.state(partnerId, environment);
  }

  /** `current`, with the revision of the last event folded into it (-1: the wallet has none). */
  currentWithRevision(partnerId: string, environment: Environment): Promise<{ state: WalletState; revision: number }> {
    const stream = walletStream(partnerId, environment);
    const lane = this.lanes.get(stream.id);
    return lane ? lane.currentWithRevision() : this.snapshotting.load(stream);
  }

  /** The wallet as it is now, loaded from its snapshot and log without caching it (for tests and audits). */
  async state(partnerId: string, environment: Environment): Promise<WalletState> {
    return (await this.snapshotting.load(walletStream(partnerId, environment))).state;
  }
}

class WalletLane {
  private state: WalletState = walletDecider.initialState;
  /** Revision of the last event folded into `state` (-1: none yet), and that event's id. */
  private revision = -1;
  private eventId: string | null = null;
  /** Revision of the newest snapshot this lane knows of (-1: none). */
  private snapshotRevision = -1;
  private stale = true;
  private readonly queue: Pending[] = [];
  private draining = false;

  constructor(
    private readonly stream: EventStream<WalletEvent>,
    private readonly store: EventStore,
    private readonly snapshotting: WalletSnapshotting,
    private readonly keyBinding: KeyBindingAppend | null,
  ) {}

  enqueue(envelope: WalletCommandEnvelope): Promise<WalletCommandResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ envelope, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** The cached state plus whatever was appended since (by this process or another), without touching the cache. */
  async current(): Promise<WalletState> {
    return (await this.currentWithRevision()).state;
  }

  async currentWithRevision(): Promise<{ state: WalletState; revision: number }> {
    if (this.revision < 0) return this.snapshotting.load(this.stream);
    // Taken together before any await: the cache moves state and revision in step.
    const { state, revision } = await this.foldedSinceCached();
    return { state, revision };
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.nextBatch();
        try {
          await this.process(batch);
        } catch (error) {
          if (error instanceof DuplicateEventIdError && batch.length > 1) {
            // A repeated command (same deterministic id) is mixed into the batch: run each on its own.
            for (const pending of batch)
              await this.process([pending]).catch((single: unknown) => pending.reject(single));
          } else {
            this.stale = true;
            for (const pending of batch) pending.reject(error);
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Up to MAX_BATCH queued commands, stopping before an event id repeats (a retried command waits for the next round). */
  private nextBatch(): Pending[] {
    const ids = new Set<string>();
    let size = 0;
    while (size < this.queue.length && size < MAX_BATCH && !ids.has(this.queue[size].envelope.eventId)) {
      ids.add(this.queue[size].envelope.eventId);
      size += 1;
    }
    return this.queue.splice(0, Math.max(size, 1));
  }

  private async process(commands: Pending[]): Promise<void> {
    let batch = commands;
    for (let attempt = 1; ; attempt++) {
      if (this.stale) await this.catchUp();
      let running = this.state;
      const results: WalletCommandResult[] = [];
      const accepted: { event: WalletEvent; pending: Pending; index: number }[] = [];
      batch.forEach((pending, index) => {
        const decision = walletDecider.decide(pending.envelope.command, running);
        if (!decision.ok) {
          results[index] = decision;
          return;
        }
        for (const event of decision.events) {
          running = walletDecider.evolve(running, event);
          accepted.push({ event, pending, index });
        }
      });
      if (accepted.length === 0) {
        batch.forEach((pending, index) => pending.resolve(results[index]));
        return;
      }
      const keyed = accepted.flatMap(({ event, pending }) =>
        pending.envelope.keyFor ? [{ binding: pending.envelope.keyFor(event), pending }] : [],
      );
      const idempotencyKeys = keyed.map(({ binding }) => binding);
      const opened = accepted.flatMap(({ event, pending }) => pending.envelope.opens?.(event) ?? []);
      if (opened.length > 0 && idempotencyKeys.length === 0)
        throw new Error('streams are opened with a wallet command only by an append that binds its key');
      const events = accepted.map(({ event, pending }) =>
        envelope(event, pending.envelope.eventId, pending.envelope.metadata),
      );
      const expected = this.revision < 0 ? 'no_stream' : this.revision;
      try {
        const appended = idempotencyKeys.length
          ? await this.bindingKeys().appendBindingKeys(this.stream.id, events, expected, idempotencyKeys, opened)
          : await this.store.append(this.stream.id, events, expected);
        if (appended.deduplicated) {
          // Every event was stored already (a retried command): our cache is behind.
          this.stale = true;
        } else {
          this.state = running;
          this.revision = appended.nextRevision;
          this.eventId = accepted[accepted.length - 1].pending.envelope.eventId;
          this.snapshotRevision = this.snapshotting.afterAppend(
            this.stream.id,
            { state: this.state, revision: this.revision, eventId: this.eventId },
            this.snapshotRevision,
          );
        }
        for (const { event, index } of accepted) {
          results[index] = { ok: true, event, position: appended.position, deduplicated: appended.deduplicated };
        }
        batch.forEach((pending, index) => pending.resolve(results[index]));
        return;
      } catch (error) {
        if (error instanceof IdempotencyKeyTakenError && attempt < MAX_ATTEMPTS) {
          // Nothing was written: the commands whose keys are bound already are refused, the others decided again without them.
          const taken = new Set(error.keys.map(keyBindingId));
          const refused = keyed.filter(({ binding }) => taken.has(keyBindingId(binding)));
          for (const { binding, pending } of refused) pending.reject(new IdempotencyKeyTakenError([binding]));
          const gone = new Set(refused.map(({ pending }) => pending));
          batch = batch.filter((pending) => !gone.has(pending));
          if (batch.length === 0) return;
          continue;
        }
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
        this.stale = true;
      }
    }
  }

  private bindingKeys(): KeyBindingAppend {
    if (!this.keyBinding)
      throw new Error('this event store binds no Idempotency-Key in the commit of its events: nothing was written');
    return this.keyBinding;
  }

  /** The cached wallet with what was appended since folded onto it; the cache itself is not touched. */
  private async foldedSinceCached(): Promise<FoldedWallet> {
    const cached: FoldedWallet = { state: this.state, revision: this.revision, eventId: this.eventId };
    return (await foldFromLog(this.store, this.stream, cached)).wallet;
  }

  private async catchUp(): Promise<void> {
    if (this.revision < 0) {
      const loaded = await this.snapshotting.load(this.stream);
      this.state = loaded.state;
      this.revision = loaded.revision;
      this.eventId = loaded.eventId;
      this.snapshotRevision = loaded.snapshotRevision;
    } else {
      const wallet = await this.foldedSinceCached();
      this.state = wallet.state;
      this.revision = wallet.revision;
      this.eventId = wallet.eventId;
    }
    this.stale = false;
  }
}
