import { Global, Module } from '@nestjs/common';
import { ORDER_ANSWER_WRITER } from '../../application/ports/order-answer-writer.port';
import { CompiledOrderAnswers } from '../../interface/http/partner/compiled-order-answers';

@Global()
@Module({
  providers: [{ provide: ORDER_ANSWER_WRITER, useClass: CompiledOrderAnswers }],
  exports: [ORDER_ANSWER_WRITER],
})
export class OrderAnswersModule {}
