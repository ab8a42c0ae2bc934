import { v4 as uuid } from 'uuid';
import { UntypedEvent, WrongExpectedRevisionError } from '../../src/application/ports/event-store.port';
import { IdempotencyKeyTakenError, KeyBindingAppend } from '../../src/application/ports/key-binding-append.port';
import { EventStore } from '../../src/application/ports/event-store.port';
import { Opened, keyBinding, newEvent } from './event-store-contract-support';

/** KeyBindingAppend: Idempotency-Keys bound in the commit of the events (the stores that offer it). */
export function keyBindingAppendContract(opened: Opened): void {
  describe('binding Idempotency-Keys in the commit of the events (KeyBindingAppend)', () => {
    let store: EventStore<UntypedEvent>;
    let keyed: KeyBindingAppend<UntypedEvent>;

    beforeAll(() => {
      const { keyBinding: port } = opened();
      if (!port) throw new Error('this store was declared to bind keys but offers no KeyBindingAppend');
      store = opened().store;
      keyed = port;
    });

    it('writes the events with a fresh key, and refuses another append with the same key, writing none of it', async () => {
      const key = `contract-${uuid()}`;
      const first = uuid();
      await keyed.appendBindingKeys(first, [newEvent('Debited')], 'no_stream', [keyBinding(key)]);
      expect(await store.readStream(first)).toHaveLength(1);
      const second = uuid();
      await store.append(second, [newEvent('Opened')], 'no_stream');
      const error = await keyed
        .appendBindingKeys(second, [newEvent('Debited')], 0, [keyBinding(key)])
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IdempotencyKeyTakenError);
      expect((error as IdempotencyKeyTakenError).keys.map((binding) => binding.key)).toEqual([key]);
      expect(await store.readStream(second)).toHaveLength(1);
      expect(await store.append(second, [newEvent('Next')], 0)).toEqual(expect.objectContaining({ nextRevision: 1 }));
    });

    it('binds no key when the append is refused on its revision, so the key stays free', async () => {
      const streamId = uuid();
      await store.append(streamId, [newEvent('Opened'), newEvent('Credited')], 'no_stream');
      const key = `contract-${uuid()}`;
      expect(
        await keyed
          .appendBindingKeys(streamId, [newEvent('Debited')], 0, [keyBinding(key)])
          .catch((caught: unknown) => caught),
      ).toBeInstanceOf(WrongExpectedRevisionError);
      await keyed.appendBindingKeys(streamId, [newEvent('Debited')], 1, [keyBinding(key)]);
      expect(await store.readStream(streamId)).toHaveLength(3);
    });

    it('lets exactly one of twenty concurrent appends to different streams bind the same key, and writes every other append', async () => {
      const shared = `contract-${uuid()}`;
      const streams = Array.from({ length: 20 }, () => uuid());
      const outcomes = await Promise.allSettled(
        streams.map((streamId, index) =>
          keyed.appendBindingKeys(streamId, [newEvent('Debited')], 'no_stream', [
            keyBinding(index % 2 === 0 ? shared : `contract-${uuid()}`),
          ]),
        ),
      );
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused).toHaveLength(9);
      for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(IdempotencyKeyTakenError);
      const written = await Promise.all(streams.map((streamId) => store.readStream(streamId)));
      expect(written.filter((events) => events.length === 1)).toHaveLength(11);
      streams.forEach((_, index) => {
        if (index % 2 === 1) expect(written[index]).toHaveLength(1);
      });
    });

    it('opens the streams an append carries in its commit, and none of them when the append is refused', async () => {
      const wallet = uuid();
      const [order, refusedOrder, keyTakenOrder] = [uuid(), uuid(), uuid()];
      const key = `opened-${uuid()}`;
      const written = await keyed.appendBindingKeys(
        wallet,
        [newEvent('Debited')],
        'no_stream',
        [keyBinding(key)],
        [{ streamId: order, events: [newEvent('Initiated'), newEvent('Settled')] }],
      );
      expect((await store.readStream(order)).map((event) => [event.type, event.revision])).toEqual([
        ['Initiated', 0],
        ['Settled', 1],
      ]);
      const last = await store.readLastEvent(order);
      expect(written.position).toEqual(last?.position);
      // Refused on its revision: neither its events nor the stream it carries are written.
      const stale = await keyed
        .appendBindingKeys(
          wallet,
          [newEvent('Debited')],
          'no_stream',
          [keyBinding(`opened-${uuid()}`)],
          [{ streamId: refusedOrder, events: [newEvent('Initiated')] }],
        )
        .catch((caught: unknown) => caught);
      expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(refusedOrder)).toHaveLength(0);
      // Refused on its key: the same.
      const taken = await keyed
        .appendBindingKeys(
          wallet,
          [newEvent('Debited')],
          0,
          [keyBinding(key)],
          [{ streamId: keyTakenOrder, events: [newEvent('Initiated')] }],
        )
        .catch((caught: unknown) => caught);
      expect(taken).toBeInstanceOf(IdempotencyKeyTakenError);
      expect(await store.readStream(keyTakenOrder)).toHaveLength(0);
      expect(await store.readStream(wallet)).toHaveLength(1);
    });

    it('opens the streams of each append among appends made at once, and only those of the appends written', async () => {
      const wallets = Array.from({ length: 6 }, () => uuid());
      const orders = wallets.map(() => uuid());
      await store.append(wallets[5], [newEvent('Credited')], 'no_stream');
      const outcomes = await Promise.allSettled(
        wallets.map((wallet, index) =>
          keyed.appendBindingKeys(
            wallet,
            [newEvent('Debited')],
            'no_stream',
            [keyBinding(`opened-${uuid()}`)],
            [{ streamId: orders[index], events: [newEvent('Initiated'), newEvent('Settled')] }],
          ),
        ),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        ...Array.from({ length: 5 }, () => 'fulfilled'),
        'rejected',
      ]);
      const lengths = await Promise.all(orders.map(async (order) => (await store.readStream(order)).length));
      expect(lengths).toEqual([2, 2, 2, 2, 2, 0]);
    });

    it('binds each stream its own keys among appends made at once, and refuses only the second of two that bind one key', async () => {
      const key = `many-${uuid()}`;
      const [first, second, third] = [uuid(), uuid(), uuid()];
      const outcomes = await Promise.allSettled([
        keyed.appendBindingKeys(first, [newEvent('Debited')], 'no_stream', [keyBinding(key)]),
        keyed.appendBindingKeys(second, [newEvent('Debited')], 'no_stream', [keyBinding(key)]),
        keyed.appendBindingKeys(third, [newEvent('Debited')], 'no_stream', [keyBinding(`other-${key}`)]),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
      const refused = outcomes.findIndex((outcome) => outcome.status === 'rejected');
      expect(refused === 0 || refused === 1).toBe(true);
      const refusal = outcomes[refused];
      if (refusal.status === 'rejected') expect(refusal.reason).toBeInstanceOf(IdempotencyKeyTakenError);
      expect(await store.readStream([first, second][refused])).toHaveLength(0);
      expect(outcomes[2].status).toBe('fulfilled');
    });
  });
}
