import {
  BillFetchUnsupportedError,
  BillQuery,
  NoBillDueError,
  OutstandingBill,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { RegisterAnswer, SetuApiClient, SetuFetch } from './setu-api';
import { outstandingBillOf } from './setu-bill';
import { SetuBillers, feeRefusalOf } from './setu-billers';
import { BillerLabels, customerParamsFor } from './setu-customer-params';
import { verdictOfFetchFailure } from './setu-outcomes';
import { AGENT_CHANNEL, SetuSettings } from './setu-settings';

const FETCH_READ_DELAYS_MS = [150, 300, 600, 1_000, 2_000];

/**
 * Bill fetches through Setu: the request names the agent, the biller and the customer, and the answer is read by its
 * refId until no longer Processing; the bill keeps that refId for its payment. Billers with a convenience fee are not
 * fetched (decision 0122).
 */
export class SetuBillFetcher {
  constructor(
    private readonly api: SetuApiClient,
    private readonly settings: SetuSettings,
    private readonly labelsOf: (billerId: number) => BillerLabels | null,
    private readonly billers: SetuBillers,
  ) {}

  async fetchBill(request: BillQuery, now: Date, signal?: AbortSignal): Promise<OutstandingBill | null> {
    const billerId = request.route?.provider === 'setu' ? request.route.upstreamId : null;
    if (!billerId) throw new BillFetchUnsupportedError(`biller ${request.billerId} has no setu route`);
    const labels = this.labelsOf(request.billerId) ?? { consumerNumber: 'Consumer Number', params: {} };
    const entry = await this.billers.cached(billerId, signal);
    if (entry?.customerFee)
      throw new BillFetchUnsupportedError(feeRefusalOf(billerId, entry.customerFee), 'convenience_fee');
    const customerParams = customerParamsFor(entry, labels, request.consumerNumber, request.params);
    const registered = await this.api.fetchRequest(
      {
        agent: {
          id: this.settings.agentId,
          channel: AGENT_CHANNEL,
          ip: this.settings.agentIp,
          mac: this.settings.agentMac,
        },
        billerId,
        // BBPS wants the customer's mobile: the consumer number when it is one, else the agent's registered mobile.
        mobile: /^[6-9]\d{9}$/.test(request.consumerNumber) ? request.consumerNumber : this.settings.agentMobile,
        customerParams,
      },
      signal,
    );
    const refId = fetchRefOf(registered, billerId);
    if (refId === null) return null;
    const fetched = await this.readFetch(refId, signal);
    if (fetched.status === 'Success') return outstandingBillOf(fetched, billerId, now);
    if (fetched.status !== 'Failure')
      throw new ProviderUnavailableError(`setu: the fetch ${refId} ended in status ${fetched.status}`);
    const failure = fetched.failure ?? { code: null, message: null, type: null };
    const described = `${failure.code ?? 'no code'}${failure.message ? `: ${failure.message}` : ''}`;
    switch (verdictOfFetchFailure(failure)) {
      case 'no_bill_due':
        throw new NoBillDueError(`setu fetch ${refId}: ${described}`);
      case 'unknown_consumer':
        return null;
      case 'unavailable':
        throw new ProviderUnavailableError(`setu: the fetch ${refId} failed (${described})`);
    }
  }

  private async readFetch(refId: string, signal?: AbortSignal): Promise<SetuFetch> {
    for (let attempt = 0; ; attempt++) {
      const fetched = await this.api.fetchResponse(refId, signal);
      if (fetched.status !== 'Processing') return fetched;
      await pause(FETCH_READ_DELAYS_MS[Math.min(attempt, FETCH_READ_DELAYS_MS.length - 1)], signal);
    }
  }
}

/** The refId of a registered fetch; null when Setu refused it because it does not take the consumer's identifier. */
function fetchRefOf(answer: RegisterAnswer, billerId: string): string | null {
  if (answer.kind === 'accepted') return answer.refId;
  if (answer.kind === 'duplicate' && answer.refId) return answer.refId;
  if (answer.kind === 'refused') {
    const failure = { code: answer.code, message: answer.message };
    const described = `HTTP ${answer.httpStatus}${answer.code ? ` ${answer.code}` : ''}${answer.message ? ` (${answer.message})` : ''}`;
    if (answer.httpStatus === 400) {
      const verdict = verdictOfFetchFailure(failure);
      if (verdict === 'no_bill_due') throw new NoBillDueError(`setu refused the fetch: ${described}`);
      if (verdict === 'unknown_consumer') return null;
      if (answer.code === 'invalid-biller-id' || answer.code === 'invalid-biller-type')
        throw new BillFetchUnsupportedError(`setu cannot fetch bills of its biller ${billerId}: ${described}`);
    }
    throw new ProviderUnavailableError(`setu refused the fetch of biller ${billerId}: ${described}`);
  }
  throw new ProviderUnavailableError(`setu answered the fetch of biller ${billerId} as a duplicate without a refId`);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ProviderUnavailableError('setu: the fetch was abandoned at its deadline'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderUnavailableError('setu: the fetch was abandoned at its deadline'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
