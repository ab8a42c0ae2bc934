import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/** The open event streams of this process, ended cleanly when the service shuts down. */
@Injectable()
export class EventStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<() => void>();
  private closing = false;

  get shuttingDown(): boolean {
    return this.closing;
  }

  /** `end` closes the stream; the returned function forgets it (the stream ended by itself). */
  add(end: () => void): () => void {
    // A stream that started while the shutdown began is ended at once.
    if (this.closing) queueMicrotask(end);
    else this.open.add(end);
    return () => this.open.delete(end);
  }

  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const end of [...this.open]) end();
    this.open.clear();
  }
}
