import { AccessDeniedError, jsonEvent } from '@eventstore/db-client';
import { v4 as uuid } from 'uuid';
import { RecordedEvent, UntypedEvent, comparePositions } from '../../../../src/application/ports/event-store.port';
import { EventStoreDbAccessDeniedError } from '../../../../src/infrastructure/event-store/eventstoredb-errors';
import { toEventData } from '../../../../src/infrastructure/event-store/eventstoredb-mapping';
import {
  BackoffPolicy,
  backoffDelayMs,
  subscribeToAllEvents,
} from '../../../../src/infrastructure/event-store/eventstoredb-subscription';
import { FakeEventStoreDbClient } from './fake-eventstoredb-client';
import { waitFor } from '../../../support/wait-for';

const FAST: BackoffPolicy = { initialMs: 5, maxMs: 20, factor: 2, jitter: 0 };

const ours = (type = 'Thing') =>
  toEventData({
    eventId: uuid(),
    type,
    schemaVersion: 1,
    data: {},
    metadata: {
      partnerId: null,
      environment: null,
      correlationId: uuid(),
      causationId: null,
      actor: { type: 'system', id: 't' },
      occurredAt: new Date().toISOString(),
    },
  });

describe('reconnection backoff', () => {
  it('doubles from the initial delay up to the cap (no jitter at random() = 0.5)', () => {
    const policy: BackoffPolicy = { initialMs: 250, maxMs: 30_000, factor: 2, jitter: 0.2 };
    const schedule = Array.from({ length: 10 }, (_, i) => backoffDelayMs(i + 1, policy, () => 0.5));
    expect(schedule).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('spreads each delay by ±jitter and never beyond the cap or below 0', () => {
    const policy: BackoffPolicy = { initialMs: 1_000, maxMs: 5_000, factor: 3, jitter: 0.2 };
    expect(backoffDelayMs(1, policy, () => 0)).toBe(800);
    expect(backoffDelayMs(1, policy, () => 1)).toBe(1_200);
    expect(backoffDelayMs(3, policy, () => 1)).toBe(5_000);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(4_000);
    expect(backoffDelayMs(1, { ...policy, jitter: 5 }, () => 0)).toBe(0);
  });

  it('stays finite for very long outages and counts attempts from 1', () => {
    expect(backoffDelayMs(10_000, { initialMs: 100, maxMs: 60_000, factor: 2, jitter: 0 })).toBe(60_000);
    expect(() => backoffDelayMs(0)).toThrow(RangeError);
  });
});

describe('native $all subscription', () => {
  it('delivers our events after the start position, in order, skipping system and foreign events', async () => {
    const client = new FakeEventStoreDbClient();
    await client.appendToStream('s-1', [ours('A')], { expectedRevision: 'any' });
    const [first] = client.log;
    client.appendSystemEvent();
    client.appendForeignEvent();
    await client.appendToStream('s-1', [ours('B'), ours('C')], { expectedRevision: 'any' });
    const seen: RecordedEvent<UntypedEvent>[] = [];
    const subscription = subscribeToAllEvents(client, { from: first.position, backoff: FAST }, async (event) => {
      seen.push(event);
    });
    await waitFor(() => seen.length === 2);
    await client.appendToStream('s-2', [ours('D')], { expectedRevision: 'any' });
    await waitFor(() => seen.length === 3);
    await subscription.stop();
    expect(seen.map((event) => event.type)).toEqual(['B', 'C', 'D']);
    expect(subscription.position).toEqual(seen[2].position);
    expect(client.openSubscriptions).toBe(0);
  });

  it('asks the server to filter out system events', async () => {
    const client = new FakeEventStoreDbClient();
    const spy = jest.spyOn(client, 'subscribeToAll');
    const subscription = subscribeToAllEvents(client, { from: null, backoff: FAST }, async () => undefined);
    await subscription.stop();
    expect(spy.mock.calls[0][0]).toMatchObject({
      fromPosition: 'start',
      resolveLinkTos: false,
      filter: { filterOn: 'eventType', regex: '^[^$].*' },
    });
  });

  it('reconnects after a drop, with backoff, from the last position: nothing lost, nothing twice', async () => {
    const client = new FakeEventStoreDbClient();
    const seen: string[] = [];
    const drops: number[] = [];
    const connections: boolean[] = [];
    const subscription = subscribeToAllEvents(
      client,
      {
        from: null,
        backoff: FAST,
        onDrop: (_error, attempt) => drops.push(attempt),
        onConnected: (reconnected) => connections.push(reconnected),
      },
      async (event) => {
        seen.push(event.eventId);
      },
    );
    const written: string[] = [];
    const write = async (): Promise<void> => {
      const event = ours();
      written.push(event.id);
      await client.appendToStream(`s-${uuid()}`, [event], { expectedRevision: 'no_stream' });
    };
    await write();
    await write();
    await waitFor(() => seen.length === 2);
    client.dropSubscriptions();
    await write();
    await write();
    await waitFor(() => drops.length === 1 && seen.length === 4);
    client.dropSubscriptions();
    client.dropSubscriptions();
    await write();
    await waitFor(() => seen.length === 5);
    await subscription.stop();
    expect(seen).toEqual(written);
    expect(drops).toEqual([1, 1]);
    expect(connections).toEqual([false, true, true]);
  });

  it('backs off longer while the server keeps failing', async () => {
    const client = new FakeEventStoreDbClient();
    const real = client.subscribeToAll.bind(client);
    let failing = 3;
    jest.spyOn(client, 'subscribeToAll').mockImplementation((options) => {
      const subscription = real(options);
      if (failing-- > 0) setImmediate(() => client.dropSubscriptions());
      return subscription;
    });
    const delays: number[] = [];
    const subscription = subscribeToAllEvents(
      client,
      { from: 'end', backoff: FAST, onDrop: (_error, _attempt, delayMs) => delays.push(delayMs) },
      async () => undefined,
    );
    await waitFor(() => delays.length === 3);
    await subscription.stop();
    expect(delays).toEqual([5, 10, 20]);
  });

  it('starting from the end delivers only new events', async () => {
    const client = new FakeEventStoreDbClient();
    await client.appendToStream('old', [ours('Old')], { expectedRevision: 'any' });
    const seen: string[] = [];
    const subscription = subscribeToAllEvents(client, { from: 'end', backoff: FAST }, async (event) => {
      seen.push(event.type);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await client.appendToStream('new', [ours('New')], { expectedRevision: 'any' });
    await waitFor(() => seen.length === 1);
    await subscription.stop();
    expect(seen).toEqual(['New']);
  });

  it('stop waits for the handler in progress; a failing handler ends the subscription and stop reports it', async () => {
    const client = new FakeEventStoreDbClient();
    let release: () => void = () => undefined;
    let started = 0;
    const slow = subscribeToAllEvents(client, { from: null, backoff: FAST }, async () => {
      started++;
      await new Promise<void>((resolve) => (release = resolve));
    });
    await client.appendToStream('s', [ours(), ours()], { expectedRevision: 'any' });
    await waitFor(() => started === 1);
    let stopped = false;
    const stopping = slow.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(started).toBe(1);

    const failing = subscribeToAllEvents(client, { from: null, backoff: FAST }, async () => {
      throw new Error('handler failed');
    });
    await waitFor(() => client.openSubscriptions === 0);
    await expect(failing.stop()).rejects.toThrow('handler failed');
    expect(failing.position).toBeNull();
  });

  it('leaves events that are not ours to the position alone but passes over them', async () => {
    const client = new FakeEventStoreDbClient();
    await client.appendToStream('foreign', [jsonEvent({ type: 'NotOurs', data: { a: 1 } })], {
      expectedRevision: 'any',
    });
    const handled: string[] = [];
    const subscription = subscribeToAllEvents(client, { from: null, backoff: FAST }, async (event) => {
      handled.push(event.type);
    });
    await waitFor(() => subscription.position !== null);
    await subscription.stop();
    expect(handled).toEqual([]);
    expect(subscription.position).toEqual(client.log[0].position);
  });
});

describe('native $all subscription against the server’s delivery rules', () => {
  it('delivers the history before an event appended while the subscription was being set up', async () => {
    const client = new FakeEventStoreDbClient();
    await client.appendToStream('s-1', [ours('Early')], { expectedRevision: 'any' });
    const appending = client.appendToStream('s-1', [ours('Late')], { expectedRevision: 'any' });
    const seen: string[] = [];
    const subscription = subscribeToAllEvents(client, { from: null, backoff: FAST }, async (event) => {
      seen.push(event.type);
    });
    try {
      await appending;
      await waitFor(() => seen.length === 2);
      await client.appendToStream('s-1', [ours('Live')], { expectedRevision: 'any' });
      await waitFor(() => seen.length === 3);
    } finally {
      await subscription.stop();
    }
    expect(seen).toEqual(['Early', 'Late', 'Live']);
  });

  it('moves its position past filtered-out events at each checkpoint, so a reconnection does not scan them again', async () => {
    const client = new FakeEventStoreDbClient();
    await client.appendToStream('s-1', [ours('A')], { expectedRevision: 'any' });
    const [ourEvent] = client.log;
    for (let i = 0; i < 70; i++) client.appendSystemEvent();
    const spy = jest.spyOn(client, 'subscribeToAll');
    const seen: string[] = [];
    const subscription = subscribeToAllEvents(client, { from: null, backoff: FAST }, async (event) => {
      seen.push(event.type);
    });
    const checkpointed = client.log[63].position;
    try {
      await waitFor(
        () => subscription.position !== null && comparePositions(subscription.position, checkpointed) === 0,
        2_000,
      );
      client.dropSubscriptions();
      await waitFor(() => spy.mock.calls.length === 2);
    } finally {
      await subscription.stop();
    }
    expect(seen).toEqual(['A']);
    expect(comparePositions(checkpointed, ourEvent.position)).toBe(1);
    expect(spy.mock.calls[1][0].fromPosition).toEqual(checkpointed);
  });

  it('takes a checkpoint in order: never past an event still being handled', async () => {
    const client = new FakeEventStoreDbClient();
    let release: () => void = () => undefined;
    const handled: string[] = [];
    const subscription = subscribeToAllEvents(client, { from: null, backoff: FAST }, async (event) => {
      if (event.type === 'Slow') await new Promise<void>((resolve) => (release = resolve));
      handled.push(event.type);
    });
    try {
      await waitFor(() => client.openSubscriptions === 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await client.appendToStream('s-1', [ours('Slow')], { expectedRevision: 'any' });
      for (let i = 0; i < 70; i++) client.appendSystemEvent();
      await client.appendToStream('s-1', [ours('After')], { expectedRevision: 'any' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(subscription.position).toBeNull();
    } finally {
      release();
    }
    await waitFor(() => handled.length === 2);
    await subscription.stop();
    expect(handled).toEqual(['Slow', 'After']);
    expect(subscription.position).toEqual(client.log[client.log.length - 1].position);
  });

  it('starts the backoff over once a subscription has stayed up for a while, without caught up (servers before 23.10)', async () => {
    const client = new FakeEventStoreDbClient();
    const real = client.subscribeToAll.bind(client);
    let opened = 0;
    jest.spyOn(client, 'subscribeToAll').mockImplementation((options) => {
      const subscription = real(options);
      opened++;
      if (opened <= 2 || opened === 4) setImmediate(() => client.dropSubscriptions());
      if (opened === 3) setTimeout(() => client.dropSubscriptions(), 200);
      return subscription;
    });
    const delays: number[] = [];
    const subscription = subscribeToAllEvents(
      client,
      { from: 'end', backoff: FAST, healthyAfterMs: 20, onDrop: (_error, _attempt, delayMs) => delays.push(delayMs) },
      async () => undefined,
    );
    try {
      await waitFor(() => delays.length === 4);
    } finally {
      await subscription.stop();
    }
    expect(delays).toEqual([5, 10, 5, 10]);
  });

  it('reports a refusal for lack of rights with the right that is missing, and keeps retrying with backoff', async () => {
    const client = new FakeEventStoreDbClient({ allReadDenied: true });
    const drops: { error: unknown; delayMs: number }[] = [];
    const seen: string[] = [];
    const subscription = subscribeToAllEvents(
      client,
      { from: null, backoff: FAST, onDrop: (error, _attempt, delayMs) => drops.push({ error, delayMs }) },
      async (event) => {
        seen.push(event.type);
      },
    );
    try {
      await waitFor(() => drops.length === 3);
      expect(drops.map(({ delayMs }) => delayMs)).toEqual([5, 10, 20]);
      for (const { error } of drops) {
        expect(error).toBeInstanceOf(EventStoreDbAccessDeniedError);
        expect(error).toMatchObject({ cause: expect.any(AccessDeniedError) });
        expect((error as Error).message).toContain(
          "the service's EventStoreDB user must be able to read $all: put it in $admins or grant read on $$$all",
        );
      }
      client.allReadDenied = false;
      await client.appendToStream('s-1', [ours('Granted')], { expectedRevision: 'any' });
      await waitFor(() => seen.length === 1);
    } finally {
      await subscription.stop();
    }
    expect(seen).toEqual(['Granted']);
  });
});
