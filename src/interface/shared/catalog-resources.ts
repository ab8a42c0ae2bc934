import { Caller } from '../../application/auth/caller';
import type { CarrierList } from '../../application/catalog/list-carriers';
import { BillerCategory, BillerEntry, OperatorEntry } from '../../application/ports/catalog.port';
import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';

/** The Operator resource (the spec's word for a carrier): a mobile prepaid carrier of the corridor. */
export interface OperatorResource {
  id: number;
  api_operator_id: string;
  name: string;
  category: 'MOBILE_PREPAID';
  min_amount: string;
  max_amount: string;
  local_currency: Currency;
}

/** What every catalog list carries before its entries. */
export interface CorridorListFields {
  corridor: Corridor;
  currency: Currency;
  count: number;
}

/** The OperatorList resource: the corridor's operators, or only the detected one when a phone was given. */
export interface OperatorListResource extends CorridorListFields {
  /** The queried phone in E.164, present when a phone was given. */
  phone?: string;
  operators: OperatorResource[];
}

/** The BillerParam resource: an extra parameter a biller needs in `params` of bill-info and pay-bill. */
export interface BillerParamResource {
  name: string;
  label: string;
  required: boolean;
  pattern: string | null;
}

/** The BillerConsumerNumber resource: what the biller calls the consumer number, and its shape. */
export interface BillerConsumerNumberResource {
  label: string;
  pattern: string | null;
}

/** The Biller resource: a biller of the corridor. */
export interface BillerResource {
  id: number;
  api_biller_id: string;
  name: string;
  category: BillerCategory;
  bbps: boolean;
  local_currency: Currency;
  consumer_number: BillerConsumerNumberResource | null;
  params: BillerParamResource[];
}

/** The BillerList resource: the corridor's billers, of one category when one was given. */
export interface BillerListResource extends CorridorListFields {
  billers: BillerResource[];
}

export const operatorResource = (operator: OperatorEntry): OperatorResource => ({
  id: operator.id,
  api_operator_id: operator.apiOperatorId,
  name: operator.name,
  category: operator.category,
  min_amount: operator.minAmount,
  max_amount: operator.maxAmount,
  local_currency: operator.currency,
});

export const billerResource = (biller: BillerEntry): BillerResource => ({
  id: biller.id,
  api_biller_id: biller.apiBillerId,
  name: biller.name,
  category: biller.category,
  bbps: biller.bbps,
  local_currency: biller.currency,
  consumer_number: biller.consumerNumber
    ? { label: biller.consumerNumber.label, pattern: biller.consumerNumber.pattern }
    : null,
  params: biller.params.map((param) => ({
    name: param.name,
    label: param.label,
    required: param.required,
    pattern: param.pattern,
  })),
});

export const operatorListResource = (caller: Caller, list: CarrierList): OperatorListResource => ({
  corridor: caller.corridor,
  currency: caller.currency,
  count: list.operators.length,
  ...(list.phone !== undefined ? { phone: list.phone } : {}),
  operators: list.operators.map(operatorResource),
});

export const billerListResource = (caller: Caller, billers: readonly BillerEntry[]): BillerListResource => ({
  corridor: caller.corridor,
  currency: caller.currency,
  count: billers.length,
  billers: billers.map(billerResource),
});
