import { Injectable } from '@nestjs/common';
import { OrderAnswerWriter } from '../../../application/ports/order-answer-writer.port';
import { InitiatedOrder } from '../../../domain/transaction/order-view';
import { OrderKind } from '../../../domain/wallet/order-product';
import { DryRunResources, OrderResources, dryRunResource, orderResource } from '../../shared/order-resources';
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

  placed(order: InitiatedOrder): string {
    return written<OrderResources, OrderKind>(this.orders, orderResource(order), order.product.kind);
  }

  dryRun(order: InitiatedOrder): string {
    return written<DryRunResources, OrderKind>(this.dryRuns, dryRunResource(order), order.product.kind);
  }
}

function written<Resources extends Record<OrderKind, unknown>, Kind extends OrderKind>(
  serializers: { [K in OrderKind]: Serializer<Resources[K]> },
  resource: Resources[Kind],
  kind: Kind,
): string {
  return serializers[kind](resource);
}
