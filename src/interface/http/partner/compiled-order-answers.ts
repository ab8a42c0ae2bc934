import { Injectable } from '@nestjs/common';
import { OrderAnswerWriter } from '../../../application/ports/order-answer-writer.port';
import { InitiatedOrder } from '../../../domain/transaction/order-view';
import { dryRunResource, isTopupDryRun, orderResource } from '../../shared/order-resources';
import { compiledSerializerOf } from '../openapi/compiled-serializer';
import { BillPaymentDryRunDto, BillPaymentOrderDto, TopupDryRunDto, TopupOrderDto } from './dto/order-response.dto';

/** The answers of POST /topup and POST /pay-bill, written by serializers compiled from their published schemas. */
@Injectable()
export class CompiledOrderAnswers implements OrderAnswerWriter {
  private readonly topupOrder = compiledSerializerOf(TopupOrderDto);
  private readonly billPaymentOrder = compiledSerializerOf(BillPaymentOrderDto);
  private readonly topupDryRun = compiledSerializerOf(TopupDryRunDto);
  private readonly billPaymentDryRun = compiledSerializerOf(BillPaymentDryRunDto);

  placed(order: InitiatedOrder): string {
    const resource = orderResource(order);
    return 'operator_id' in resource ? this.topupOrder(resource) : this.billPaymentOrder(resource);
  }

  dryRun(order: InitiatedOrder): string {
    const answer = dryRunResource(order);
    return isTopupDryRun(answer) ? this.topupDryRun(answer) : this.billPaymentDryRun(answer);
  }
}
