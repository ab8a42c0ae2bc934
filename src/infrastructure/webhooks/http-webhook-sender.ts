import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LookupFunction } from 'node:net';
import { WebhookRequest, WebhookSendResult, WebhookSender } from '../../application/ports/webhook.port';
import { serviceMetrics } from '../metrics/service-metrics';
import { traced } from '../tracing/tracing';
import { DELIVERY_ERRORS, DeliveryError } from '../../application/ports/delivery-error';
import { OutboundAddressPolicy } from './outbound-address-policy';

const MAX_RESPONSE_BYTES = 64 * 1024;

class AddressNotAllowed extends Error {}

/** Posts with node:http(s), no redirects; the address checked is the one connected to (decision 0066); failures by category. */
export class HttpWebhookSender implements WebhookSender {
  constructor(
    private readonly timeoutMs: number,
    private readonly policy: OutboundAddressPolicy,
  ) {}

  send(request: WebhookRequest): Promise<WebhookSendResult> {
    return traced(
      'webhook deliver',
      () => this.sendNow(request),
      () => ({
        attributes: {
          'webhook.event': request.headers['x-partner-event'] ?? '',
          'webhook.delivery_id': request.headers['x-partner-event-id'] ?? '',
          'deployment.environment.name': request.environment,
        },
      }),
    );
  }

  private async sendNow(request: WebhookRequest): Promise<WebhookSendResult> {
    const result = await this.post(request);
    const delivered = result.kind === 'response' && result.statusCode >= 200 && result.statusCode < 300;
    serviceMetrics.webhookAttempts.inc({
      outcome: delivered ? 'delivered' : result.kind === 'response' ? 'rejected' : 'error',
    });
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
        resolve({ kind: 'error', error: DELIVERY_ERRORS.invalidUrl, latencyMs: 0 });
        return;
      }
      if (this.policy.refusedLiteral(request.url) !== null) {
        resolve({ kind: 'error', error: DELIVERY_ERRORS.addressNotAllowed, latencyMs: 0 });
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
          lookup: permittedOnlyLookup(this.policy),
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
          response.on('close', () =>
            finish({ kind: 'error', error: DELIVERY_ERRORS.answerCutOff, latencyMs: latency() }),
          );
        },
      );
      const deadline = setTimeout(() => {
        finish({ kind: 'error', error: DELIVERY_ERRORS.timeout, latencyMs: latency() });
        outgoing.destroy();
      }, this.timeoutMs);
      outgoing.on('error', (error) => finish({ kind: 'error', error: categoryOf(error), latencyMs: latency() }));
      outgoing.end(request.body);
    });
  }
}

function categoryOf(error: Error): DeliveryError {
  if (error instanceof AddressNotAllowed) return DELIVERY_ERRORS.addressNotAllowed;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA')
    return DELIVERY_ERRORS.nameNotResolved;
  if (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/.test(code)
  )
    return DELIVERY_ERRORS.tlsFailed;
  return DELIVERY_ERRORS.connectionFailed;
}

function permittedOnlyLookup(policy: OutboundAddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      // Every address must pass: the connection may use any of them (and a rebinding name offers several).
      if (addresses.length === 0 || addresses.some((entry) => !policy.permits(entry.address))) {
        callback(new AddressNotAllowed(`${hostname} resolves to an address webhooks may not reach`), '', 0);
        return;
      }
      if (options.all) {
        callback(null, addresses);
        return;
      }
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
