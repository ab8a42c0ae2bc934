import { StatementBatcher } from '../../../../src/infrastructure/sql/statement-batcher';

/** A statement whose round trips the test ends by hand, recording what each one carried. */
class ManualStatement {
  readonly calls: { items: readonly number[]; finish(): void; fail(error: Error): void }[] = [];

  run = (items: readonly number[]): Promise<number[]> =>
    new Promise((resolve, reject) => {
      this.calls.push({ items, finish: () => resolve(items.map((item) => item * 10)), fail: reject });
    });
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatcher', () => {
  it('runs an item at once and alone while nothing is in flight', async () => {
    const statement = new ManualStatement();
    const batcher = new StatementBatcher(statement.run, { concurrency: 1, maxBatch: 10 });
    const answer = batcher.submit(1);
    expect(statement.calls.map((call) => call.items)).toEqual([[1]]);
    statement.calls[0].finish();
    await expect(answer).resolves.toBe(10);
  });

  it('puts the items that arrive during a round trip together into the next statement, each answered with its own result', async () => {
    const statement = new ManualStatement();
    const batcher = new StatementBatcher(statement.run, { concurrency: 1, maxBatch: 10 });
    const answers = [1, 2, 3, 4].map((item) => batcher.submit(item));
    expect(statement.calls.map((call) => call.items)).toEqual([[1]]);
    statement.calls[0].finish();
    await flush();
    expect(statement.calls.map((call) => call.items)).toEqual([[1], [2, 3, 4]]);
    statement.calls[1].finish();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40]);
  });

  it('keeps up to `concurrency` statements in flight and splits at maxBatch', async () => {
    const statement = new ManualStatement();
    const batcher = new StatementBatcher(statement.run, { concurrency: 2, maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5].map((item) => batcher.submit(item));
    expect(statement.calls.map((call) => call.items)).toEqual([[1], [2]]);
    statement.calls[0].finish();
    await flush();
    expect(statement.calls.map((call) => call.items)).toEqual([[1], [2], [3, 4]]);
    statement.calls[1].finish();
    await flush();
    expect(statement.calls.map((call) => call.items)).toEqual([[1], [2], [3, 4], [5]]);
    statement.calls[2].finish();
    statement.calls[3].finish();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it('fails every item of a failed statement and only those', async () => {
    const statement = new ManualStatement();
    const batcher = new StatementBatcher(statement.run, { concurrency: 1, maxBatch: 10 });
    const first = batcher.submit(1);
    const second = batcher.submit(2);
    const third = batcher.submit(3);
    statement.calls[0].finish();
    await flush();
    statement.calls[1].fail(new Error('connection lost'));
    await expect(first).resolves.toBe(10);
    await expect(second).rejects.toThrow('connection lost');
    await expect(third).rejects.toThrow('connection lost');
    const later = batcher.submit(4);
    statement.calls[2].finish();
    await expect(later).resolves.toBe(40);
  });

  it('refuses a statement that answers a different number of items than it was given', async () => {
    const batcher = new StatementBatcher<number, number>(async (items) => (items.includes(2) ? [] : [...items]), {
      concurrency: 1,
      maxBatch: 10,
    });
    const answers = [batcher.submit(1), batcher.submit(2)];
    await expect(answers[0]).resolves.toBe(1);
    await expect(answers[1]).rejects.toThrow('a batch of 1 got 0 results');
  });
});

describe('StatementBatcher that gathers a turn of the event loop', () => {
  it('sends the items submitted in one turn together, though nothing was in flight', async () => {
    const statement = new ManualStatement();
    const batcher = new StatementBatcher(statement.run, { concurrency: 2, maxBatch: 10, gatherTurn: true });
    const answers = [1, 2, 3].map((item) => batcher.submit(item));
    expect(statement.calls).toHaveLength(0);
    await flush();
    expect(statement.calls.map((call) => call.items)).toEqual([[1, 2, 3]]);
    statement.calls[0].finish();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30]);
  });
});
