import { createHash } from 'node:crypto';
import { WebhookRequest, WebhookSendResult, WebhookSender } from '../../src/application/ports/webhook.port';
import { SeededRandom } from './seeded-random';

/**
 * The partners' webhook endpoints of the simulation: each attempt of each delivery is answered
 * from the seed (mostly 2xx, sometimes a 500 or a timeout), so deliveries are retried on the
 * 5-minute timers. Nothing goes on the network.
 */
export class ScriptedWebhookReceiver implements WebhookSender {
  private readonly attempts = new Map<string, number>();
  readonly received: { body: string; answered: string }[] = [];

  constructor(private readonly random: SeededRandom) {}

  async send(request: WebhookRequest): Promise<WebhookSendResult> {
    const delivery = createHash('sha256').update(request.body).digest('hex');
    const attempt = (this.attempts.get(delivery) ?? 0) + 1;
    this.attempts.set(delivery, attempt);
    const draw = this.random.fork(`${delivery}#${attempt}`).weighted({ ok: 70, error: 20, timeout: 10 });
    this.received.push({ body: request.body, answered: draw });
    if (draw === 'ok') return { kind: 'response', statusCode: 204, latencyMs: 5 };
    if (draw === 'error') return { kind: 'response', statusCode: 500, latencyMs: 5 };
    return { kind: 'error', error: 'timeout', latencyMs: 10_000 };
  }
}
