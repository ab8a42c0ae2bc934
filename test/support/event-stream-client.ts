export interface StreamedEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * Reads a Server-Sent Events answer as it arrives and keeps every event and comment line;
 * `close()` aborts the request.
 */
export class EventStreamClient {
  readonly events: StreamedEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  contentType: string | null = null;
  ended = false;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  static async open(url: string, headers: Record<string, string>): Promise<EventStreamClient> {
    const client = new EventStreamClient();
    const response = await fetch(url, { headers, signal: client.abort.signal });
    client.status = response.status;
    client.contentType = response.headers.get('content-type');
    if (response.body) client.done = client.consume(response.body);
    else client.ended = true;
    return client;
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done.catch(() => undefined);
  }

  private async consume(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          this.block(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
        }
      }
    } finally {
      this.ended = true;
    }
  }

  private block(text: string): void {
    const event: StreamedEvent = { id: undefined, event: undefined, data: '' };
    let hasData = false;
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) event.id = line.slice(4);
      else if (line.startsWith('event: ')) event.event = line.slice(7);
      else if (line.startsWith('data: ')) {
        event.data += (hasData ? '\n' : '') + line.slice(6);
        hasData = true;
      }
    }
    if (hasData) this.events.push(event);
  }
}
