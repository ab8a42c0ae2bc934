import { Caller } from '../../../application/auth/caller';
import { BillToFetch } from '../../../application/orders/fetch-bill';
import { PayBill } from '../../../application/orders/pay-bill';
import { PlaceTopup } from '../../../application/orders/place-topup';
import { BillInfoDto } from './bill-info.dto';
import { PayBillDto } from './pay-bill.dto';
import { requestHash } from './request-hash';
import { TopupDto } from './topup.dto';

export const billToFetch = (body: BillInfoDto): BillToFetch => ({
  billerId: body.biller_id,
  consumerNumber: body.consumer_number,
  params: body.params,
});

// Under its idempotency key a request is its body as the partner sent it, but for validate_only (a dry run
// leaves the key unused).
export function placeTopup(caller: Caller, key: string, body: TopupDto): PlaceTopup {
  const { validate_only: validateOnly, ...request } = body;
  const topup = {
    operatorId: request.operator_id,
    phone: request.phone,
    amount: request.amount,
    reference: request.reference,
  };
  return new PlaceTopup(caller, key, topup, requestHash('topup', request), validateOnly === true);
}

export function payBill(caller: Caller, key: string, body: PayBillDto): PayBill {
  const { validate_only: validateOnly, ...request } = body;
  const payment = { ...billToFetch(request), amount: request.amount, reference: request.reference };
  return new PayBill(caller, key, payment, requestHash('pay-bill', request), validateOnly === true);
}
