import { Injectable } from '@nestjs/common';
import { OrderAnswerWriter } from '../../../application/ports/order-answer-writer.port';
import { OrderKind } from '../../../domain/wallet/order-product';
import { Serializer, compiledSerializerOf } from '../openapi/compiled-serializer';
import { BillPaymentDryRunDto, BillPaymentOrderDto, TopupDryRunDto, TopupOrderDto } from './dto/order-response.dto';

/** The answers of POST /topup and POST /pay-bill, written by serializers compiled from their published schemas. */
@Injectable()
export class CompiledOrderAnswers implements OrderAnswerWriter {
  private readonly orders: Record<OrderKind, Serializer> = {
    topup: compiledSerializerOf(TopupOrderDto),
    bill_payment: compiledSerializerOf(BillPaymentOrderDto),
  };
  private readonly dryRuns: Record<OrderKind, Serializer> = {
    topup: compiledSerializerOf(TopupDryRunDto),
    bill_payment: compiledSerializerOf(BillPaymentDryRunDto),
  };

  placed(order: Record<string, unknown>, kind: OrderKind): string {
    return this.orders[kind](order);
  }

  dryRun(answer: Record<string, unknown>, kind: OrderKind): string {
    return this.dryRuns[kind](answer);
  }
}
