interface Submitted<In, Out> {
  item: In;
  resolve(result: Out): void;
  reject(error: unknown): void;
}

interface StatementBatcherOptions {
  /** Statements in flight at once; items arriving meanwhile wait and go together in the next one. */
  concurrency: number;
  /** Most items in one statement. */
  maxBatch: number;
  /** Waits for the end of the turn so items submitted together share a statement; for background work only. */
  gatherTurn?: boolean;
}

/** Coalesces concurrent one-row statements into multi-row ones under load; if `run` throws, every item of the batch gets the error. */
export class StatementBatcher<In, Out> {
  private readonly waiting: Submitted<In, Out>[] = [];
  private inFlight = 0;
  private turnEndScheduled = false;

  constructor(
    private readonly run: (items: readonly In[]) => Promise<readonly Out[]>,
    private readonly options: StatementBatcherOptions = { concurrency: 2, maxBatch: 256 },
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.options.gatherTurn) this.next();
      else if (!this.turnEndScheduled) {
        this.turnEndScheduled = true;
        setImmediate(() => {
          this.turnEndScheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    while (this.inFlight < this.options.concurrency && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        this.inFlight -= 1;
        this.next();
      });
    }
  }

  private async flush(batch: Submitted<In, Out>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((submitted) => submitted.item));
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} got ${results.length} results`);
      batch.forEach((submitted, index) => submitted.resolve(results[index]));
    } catch (error) {
      for (const submitted of batch) submitted.reject(error);
    }
  }
}
