import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';

export interface StreamedEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * Reads a Server-Sent Events answer as it arrives and keeps every event and comment line;
 * `close()` ends the connection itself (its socket is destroyed, as a client that goes away
 * does), so the service sees the stream's client leave at once.
 */
export class EventStreamClient {
  readonly events: StreamedEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  contentType: string | null = null;
  ended = false;
  private request: ClientRequest | null = null;
  private done: Promise<void> = Promise.resolve();

  static open(url: string, headers: Record<string, string>): Promise<EventStreamClient> {
    const client = new EventStreamClient();
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(url, { headers, agent: false });
      client.request = outgoing;
      outgoing.on('error', (error) => {
        client.ended = true;
        if (client.status === 0) reject(error);
      });
      outgoing.on('response', (response) => {
        client.status = response.statusCode ?? 0;
        const type = response.headers['content-type'];
        client.contentType = typeof type === 'string' ? type : null;
        client.done = client.consume(response);
        resolve(client);
      });
      outgoing.end();
    });
  }

  async close(): Promise<void> {
    this.request?.destroy();
    await this.done.catch(() => undefined);
  }

  private async consume(body: IncomingMessage): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          this.block(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
        }
      }
    } catch {
      // The connection was cut (by close(), or by the service): the stream simply ended.
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
