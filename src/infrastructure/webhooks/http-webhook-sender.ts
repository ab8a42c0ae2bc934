import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { WebhookRequest, WebhookSendResult, WebhookSender } from '../../application/ports/webhook.port';
import { isPublicAddress } from './public-address';

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Posts with node:http(s). Redirects are not followed (a 3xx is a failed attempt). For live
 * deliveries the address check runs inside the connection's DNS lookup, so the address
 * that was checked is the one connected to (no rebinding between check and connect).
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly timeoutMs: number) {}

  send(request: WebhookRequest): Promise<WebhookSendResult> {
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
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body).toString() },
          timeout: this.timeoutMs,
          lookup: live ? publicOnlyLookup : undefined,
        },
        (response) => {
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > MAX_RESPONSE_BYTES) response.destroy();
          });
          response.on('close', () => resolve({ kind: 'response', statusCode: response.statusCode ?? 0, latencyMs: latency() }));
          response.on('error', () => undefined);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      outgoing.on('error', (error) => resolve({ kind: 'error', error: error.message, latencyMs: latency() }));
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
