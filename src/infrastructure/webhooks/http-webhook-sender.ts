import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { WebhookRequest, WebhookSendResult, WebhookSender } from '../../application/ports/webhook.port';
import { isPublicAddress } from '../../application/webhooks/public-address';
import { serviceMetrics } from '../metrics/service-metrics';

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Posts with node:http(s). Redirects are not followed (a 3xx is a failed attempt). For live
 * deliveries the address check runs inside the connection's DNS lookup, so the address
 * that was checked is the one connected to (no rebinding between check and connect).
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly timeoutMs: number) {}

  async send(request: WebhookRequest): Promise<WebhookSendResult> {
    const result = await this.post(request);
    const delivered = result.kind === 'response' && result.statusCode >= 200 && result.statusCode < 300;
    serviceMetrics.webhookAttempts.inc({ outcome: delivered ? 'delivered' : result.kind === 'response' ? 'rejected' : 'error' });
    return result;
  }

  private post(request: WebhookRequest): Promise<WebhookSendResult> {
    const started = Date.now();
    const latency = () => Date.now() - started;
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        resolve({ kind: 'error', error: 'invalid webhook URL', latencyMs: 0 });
        return;
      }
      const live = request.environment === 'live';
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (live && isIP(host) && !isPublicAddress(host)) {
        resolve({ kind: 'error', error: `refused: ${host} is not a public address`, latencyMs: 0 });
        return;
      }
      // One deadline for the whole exchange (connect, send, complete answer): an idle-socket timeout
      // alone lets a receiver that trickles its answer hold the attempt past the job's lease.
      let done = false;
      const finish = (result: WebhookSendResult): void => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        resolve(result);
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body).toString() },
          lookup: live ? publicOnlyLookup : undefined,
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            // The answer's body is not needed: past this size it is cut off, and the status stands.
            if (received > MAX_RESPONSE_BYTES) {
              finish({ kind: 'response', statusCode, latencyMs: latency() });
              response.destroy();
            }
          });
          response.on('end', () => finish({ kind: 'response', statusCode, latencyMs: latency() }));
          response.on('error', () => undefined);
          response.on('close', () => finish({ kind: 'error', error: `answer ${statusCode} was cut off before it was complete`, latencyMs: latency() }));
        },
      );
      const deadline = setTimeout(() => {
        finish({ kind: 'error', error: `no complete answer within ${this.timeoutMs} ms`, latencyMs: latency() });
        outgoing.destroy();
      }, this.timeoutMs);
      outgoing.on('error', (error) => finish({ kind: 'error', error: error.message, latencyMs: latency() }));
      outgoing.end(request.body);
    });
  }
}

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as LookupAddress[];
    const refused = list.find((entry) => !isPublicAddress(entry.address));
    if (refused || list.length === 0) {
      return callback(new Error(`refused: ${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`), '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
