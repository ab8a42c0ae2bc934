import { Injectable } from '@nestjs/common';
import { DryRunResources, OrderResources } from '../../../application/orders/order-response';
import { OrderAnswerWriter } from '../../../application/ports/order-answer-writer.port';
import { OrderKind } from '../../../domain/wallet/order-product';
import { Serializer, compiledSerializerOf } from '../openapi/compiled-serializer';
import { BillPaymentDryRunDto, BillPaymentOrderDto, TopupDryRunDto, TopupOrderDto } from './dto/order-response.dto';

/** The answers of POST /topup and POST /pay-bill, written by serializers compiled from their published schemas. */
@Injectable()
export class CompiledOrderAnswers implements OrderAnswerWriter {
  private readonly orders: { [Kind in OrderKind]: Serializer<OrderResources[Kind]> } = {
    topup: compiledSerializerOf(TopupOrderDto),
    bill_payment: compiledSerializerOf(BillPaymentOrderDto),
  };
  private readonly dryRuns: { [Kind in OrderKind]: Serializer<DryRunResources[Kind]> } = {
    topup: compiledSerializerOf(TopupDryRunDto),
    bill_payment: compiledSerializerOf(BillPaymentDryRunDto),
  };

  placed<Kind extends OrderKind>(order: OrderResources[Kind], kind: Kind): string {
    return this.orders[kind](order);
  }

  dryRun<Kind extends OrderKind>(answer: DryRunResources[Kind], kind: Kind): string {
    return this.dryRuns[kind](answer);
  }
}
