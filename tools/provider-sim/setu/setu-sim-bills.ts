import { Answer } from '../sim-http';
import { SETU_SIM_BILLERS } from './setu-sim-catalog';
import { istDate, setuError, setuOk } from './setu-sim-http';
import { billPaiseOf, setuScenarioOf } from './setu-sim-scenarios';
import { SetuSimFetch, SetuSimState } from './setu-sim-state';

const AGENT_FIELDS_BY_CHANNEL: Record<string, string[]> = {
  INT: ['ip', 'mac'],
  INTB: ['ip', 'mac'],
  MOB: ['ip', 'imei', 'os', 'app'],
  MOBB: ['ip', 'imei', 'os', 'app'],
  AGT: ['terminalId', 'mobile', 'geocode', 'postalCode'],
  BSC: ['terminalId', 'mobile', 'geocode', 'postalCode'],
};
const DAY_MS = 86_400_000;

/** Bill fetches: the request registers one (checked as BBPS checks it), its answer is read by refId. */
export class SetuSimBills {
  constructor(
    private readonly state: SetuSimState,
    private readonly pendingReads: number,
    private readonly now: () => number,
  ) {}

  request(body: Record<string, unknown> | null): Answer {
    const agent = objectOf(body?.agent);
    const channel = typeof agent.channel === 'string' ? agent.channel : '';
    if (typeof agent.id !== 'string' || !agent.id || !channel)
      return setuError(400, 'invalid-agent', 'agent.id and agent.channel are required');
    const missing = (AGENT_FIELDS_BY_CHANNEL[channel] ?? []).filter((field) => typeof agent[field] !== 'string');
    if (missing.length) return setuError(400, 'invalid-agent', `channel ${channel} needs agent ${missing.join(', ')}`);
    const billerId = objectOf(body?.biller).id;
    const biller = SETU_SIM_BILLERS.find((candidate) => candidate.id === billerId);
    if (!biller) return setuError(400, 'invalid-biller-id', 'Invalid biller Id.');
    if (biller.fetchApiType === 'BILL_DIRECT')
      return setuError(400, 'invalid-biller-type', 'Biller is not allowed to make the request.');
    const customer = objectOf(body?.customer);
    if (typeof customer.mobile !== 'string' || !/^\d{6,22}$/.test(customer.mobile))
      return setuError(400, 'invalid-params', 'customer.mobile must be 6 to 22 digits');
    const given = new Map<string, string>();
    for (const entry of Array.isArray(customer.customerParams) ? (customer.customerParams as unknown[]) : []) {
      const param = objectOf(entry);
      if (typeof param.name === 'string' && typeof param.value === 'string') given.set(param.name, param.value);
    }
    for (const declared of biller.customerParams) {
      const value = given.get(declared.paramName);
      if (value === undefined && declared.optional) continue;
      if (value === undefined || !new RegExp(declared.regex).test(value))
        return setuError(400, 'invalid-customer-param', `Customer param is not valid: ${declared.paramName}`);
    }
    const consumerNumber = given.get(biller.customerParams[0].paramName) ?? '';
    const scenario = setuScenarioOf(consumerNumber);
    const now = this.now();
    const fetch: SetuSimFetch = {
      refId: this.state.newRefId(),
      billerId: biller.id,
      consumerNumber,
      mobile: customer.mobile,
      scenario,
      reads: 0,
      status: 'Processing',
      amountPaise: billPaiseOf(scenario),
      dueDate: istDate(now + (scenario === 'overdue' ? -5 : 10) * DAY_MS),
      billDate: istDate(now - 5 * DAY_MS),
      billNumber: `BILL${String(this.state.fetches.size + 1).padStart(8, '0')}`,
      createdAt: now,
      payments: 0,
    };
    this.state.fetches.set(fetch.refId, fetch);
    return setuOk({ refId: fetch.refId });
  }

  response(body: Record<string, unknown> | null): Answer {
    const fetch = typeof body?.refId === 'string' ? this.state.fetches.get(body.refId) : undefined;
    if (!fetch) return setuError(400, 'invalid-ref-id', 'Invalid reference ID.');
    fetch.reads++;
    if (fetch.scenario === 'fetch_forever' || fetch.reads <= this.pendingReads)
      return setuOk({ refId: fetch.refId, status: 'Processing' });
    if (fetch.scenario === 'no_bill_due' || fetch.scenario === 'unknown_customer') {
      fetch.status = 'Failure';
      const [code, message] =
        fetch.scenario === 'no_bill_due'
          ? ['BFR004', 'Payment received for the billing period - no bill due']
          : ['ERR004', 'customer not found'];
      return setuOk({ refId: fetch.refId, status: 'Failure', failureReason: { code, message, type: 'BBPS' } });
    }
    fetch.status = 'Success';
    const biller = SETU_SIM_BILLERS.find((candidate) => candidate.id === fetch.billerId);
    return setuOk({
      refId: fetch.refId,
      status: 'Success',
      billerRefId: `BR${fetch.refId.slice(-8)}`,
      exactness: biller?.exactness ?? 'Exact',
      billerResponseType: 'SINGLE',
      billerSelectionType: null,
      additionalInfo: [{ name: 'Consumer Number', value: fetch.consumerNumber }],
      bills: [
        {
          amount: fetch.amountPaise,
          billDate: fetch.billDate,
          billNumber: fetch.billNumber,
          billPeriod: 'MONTHLY',
          customerName: 'Asha Verma',
          dueDate: fetch.dueDate,
        },
      ],
    });
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
