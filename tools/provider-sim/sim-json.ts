import { SIM_BILLERS, SIM_OPERATORS, SimBiller, SimOperator } from './sim-catalog';
import { num, stamp } from './sim-http';
import { zonedStamp } from './sim-time';
import { divide, literal, micros } from './sim-money';
import { SimState, SimStatus, SimTransaction } from './sim-state';

/** The simulator's records as Reloadly's JSON bodies. */
export function topupJson(state: SimState, transaction: SimTransaction): Record<string, unknown> {
  const operator = SIM_OPERATORS.find((candidate) => candidate.id === transaction.productId);
  if (!operator) throw new Error(`no simulated operator ${transaction.productId}`);
  return {
    transactionId: transaction.id,
    status: transaction.status,
    operatorTransactionId: transaction.status === 'SUCCESSFUL' ? transaction.operatorTransactionId : null,
    customIdentifier: transaction.reference,
    recipientPhone: transaction.target,
    recipientEmail: null,
    senderPhone: null,
    countryCode: transaction.country,
    operatorId: transaction.productId,
    operatorName: operator.name,
    discount: 0,
    discountCurrencyCode: state.currency,
    requestedAmount: num(literal(transaction.requested.amount)),
    requestedAmountCurrencyCode: transaction.requested.currency,
    deliveredAmount: num(literal(transaction.delivered.amount)),
    deliveredAmountCurrencyCode: transaction.delivered.currency,
    transactionDate: transaction.writtenDate ?? zonedStamp(transaction.createdAt, state.reportTimeZone),
    pinDetail: null,
    balanceInfo: {
      oldBalance: num(literal(transaction.balanceAfter + transaction.cost, 5)),
      newBalance: num(literal(transaction.balanceAfter, 5)),
      currencyCode: state.currency,
      currencyName: state.currency,
      updatedAt: stamp(transaction.createdAt),
    },
  };
}

export function paymentJson(state: SimState, transaction: SimTransaction): Record<string, unknown> {
  const [code, message] = paymentMessage(transaction.status);
  return {
    id: transaction.id,
    status: transaction.status,
    referenceId: transaction.reference,
    code,
    message,
    submittedAt: transaction.writtenDate ?? zonedStamp(transaction.createdAt, state.reportTimeZone),
    finalStatusAvailabilityAt: zonedStamp(transaction.settlesAt, state.reportTimeZone),
  };
}

/**
 * The topup status answer, in the wrapper Reloadly's SDKs read (`{code, message, status,
 * transaction}`); a refunded topup's carries no transaction. `flat`: the transaction itself, as
 * the API reference shows it.
 */
export function topupStatusJson(state: SimState, transaction: SimTransaction, flat: boolean): Record<string, unknown> {
  if (flat) return topupJson(state, transaction);
  if (transaction.status === 'REFUNDED')
    return {
      code: 'TOPUP_REFUNDED',
      message: 'The topup was not processed by the operator; the amount was returned to your balance',
      status: 'REFUNDED',
      transaction: null,
    };
  return { code: null, message: null, status: transaction.status, transaction: topupJson(state, transaction) };
}

/** A payment as the look-ups list it: `{code, message, transaction}`. */
export function paymentItem(state: SimState, transaction: SimTransaction): Record<string, unknown> {
  const [code, message] = paymentMessage(transaction.status);
  const biller = SIM_BILLERS.find((candidate) => candidate.id === transaction.productId);
  if (!biller) throw new Error(`no simulated biller ${transaction.productId}`);
  return {
    code,
    message,
    transaction: {
      id: transaction.id,
      status: transaction.status,
      referenceId: transaction.reference,
      amount: num(literal(transaction.delivered.amount)),
      amountCurrencyCode: transaction.delivered.currency,
      deliveryAmount: num(literal(transaction.delivered.amount)),
      deliveryAmountCurrencyCode: transaction.delivered.currency,
      fee: 0,
      feeCurrencyCode: state.currency,
      discount: 0,
      discountCurrencyCode: state.currency,
      submittedAt: transaction.writtenDate ?? zonedStamp(transaction.createdAt, state.reportTimeZone),
      balanceInfo: {
        oldBalance: num(literal(transaction.balanceAfter + transaction.cost, 5)),
        newBalance: num(literal(transaction.balanceAfter, 5)),
        cost: num(literal(transaction.cost, 5)),
        currencyCode: state.currency,
        currencyName: state.currency,
        updatedAt: stamp(transaction.createdAt),
      },
      billDetails: {
        type: biller.type,
        billerId: biller.id,
        billerName: biller.name,
        billerCountryCode: biller.country,
        serviceType: biller.serviceType,
        completedAt:
          transaction.status === 'PROCESSING' ? null : zonedStamp(transaction.createdAt, state.reportTimeZone),
        subscriberDetails: { accountNumber: transaction.target },
      },
    },
  };
}

export function operatorJson(operator: SimOperator): Record<string, unknown> {
  return {
    id: operator.id,
    operatorId: operator.id,
    name: operator.name,
    bundle: false,
    data: false,
    pin: false,
    supportsLocalAmounts: true,
    denominationType: 'RANGE',
    senderCurrencyCode: 'USD',
    destinationCurrencyCode: operator.currency,
    minAmount: num(literal(divide(micros(operator.localMin), micros(operator.fxRate)))),
    maxAmount: num(literal(divide(micros(operator.localMax), micros(operator.fxRate)))),
    localMinAmount: num(operator.localMin),
    localMaxAmount: num(operator.localMax),
    country: { isoName: operator.country, name: operator.countryName },
    fx: { rate: num(operator.fxRate), currencyCode: operator.currency },
    fixedAmounts: [],
    localFixedAmounts: [],
  };
}

export function billerJson(biller: SimBiller): Record<string, unknown> {
  return {
    id: biller.id,
    name: biller.name,
    countryIsoCode: biller.country,
    type: biller.type,
    serviceType: biller.serviceType,
    localAmountSupported: true,
    localTransactionCurrencyCode: biller.currency,
    minLocalTransactionAmount: 1,
    maxLocalTransactionAmount: 100000,
    localTransactionFee: 0,
    localTransactionFeeCurrencyCode: biller.currency,
  };
}

function paymentMessage(status: SimStatus): [string, string] {
  if (status === 'SUCCESSFUL') return ['PAYMENT_PROCESSED_SUCCESSFULLY', 'The payment was processed successfully'];
  if (status === 'REFUNDED') return ['PAYMENT_REFUNDED', 'The payment was refunded'];
  if (status === 'PROCESSING')
    return [
      'PAYMENT_PROCESSING_IN_PROGRESS',
      'The payment is being processed, status will be updated when biller processes the payment.',
    ];
  return ['PAYMENT_FAILED', 'The payment could not be processed by the biller'];
}
