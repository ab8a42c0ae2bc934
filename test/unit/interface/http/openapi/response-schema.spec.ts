import { Type } from '@nestjs/common';
import { FASTIFY_ROUTE_SCHEMA_METADATA } from '@nestjs/platform-fastify/constants';
import fastJsonStringify from 'fast-json-stringify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { responseSchemaOf } from '../../../../../src/interface/http/openapi/response-schema';
import { BalanceController } from '../../../../../src/interface/http/partner/balance.controller';
import { BalanceResponseDto } from '../../../../../src/interface/http/partner/dto/balance-response.dto';
import {
  BillPaymentDryRunDto,
  BillPaymentOrderDto,
  TopupDryRunDto,
  TopupOrderDto,
} from '../../../../../src/interface/http/partner/dto/order-response.dto';
import { TransactionStatusDto } from '../../../../../src/interface/http/partner/dto/transaction-response.dto';
import { TransactionsController } from '../../../../../src/interface/http/partner/transactions.controller';
import { OPENAPI_SNAPSHOT_FILE } from '../../../../../tools/openapi/canonical-json';
import { expectSentAsProduced } from '../../../../support/sent-as-produced';

type Schema = Record<string, any>;

const published: Schema = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', '..', '..', OPENAPI_SNAPSHOT_FILE), 'utf8'),
);
const PREFIX = '#/components/schemas/';

/** A schema of the published document with its references replaced by what they name. */
function resolved(schema: any): any {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (schema === null || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(PREFIX)) {
    const { $ref, ...beside } = schema;
    return resolved({ ...published.components.schemas[$ref.slice(PREFIX.length)], ...beside });
  }
  return Object.fromEntries(Object.entries(schema).map(([key, child]) => [key, resolved(child)]));
}

const okSchemaOf = (path: string, method: string): Schema =>
  published.paths[path][method].responses['200'].content['application/json'].schema;

const transaction = {
  order_id: 'ord_1',
  status: 'SUCCESS',
  amount_local: '100.0000',
  currency: 'INR',
  operator_ref: 'OP-1',
  settled_at: '2026-01-15T09:30:00.000Z',
  refunded_at: null,
  reference: 'mine',
  operator_id: 101,
  phone: '+919876540001',
  created_at: '2026-01-15T09:29:00.000Z',
};

describe('the response schemas of the hot partner answers', () => {
  it.each<[string, Type]>([
    ['TopupOrder', TopupOrderDto],
    ['TopupDryRun', TopupDryRunDto],
    ['BillPaymentOrder', BillPaymentOrderDto],
    ['BillPaymentDryRun', BillPaymentDryRunDto],
    ['TransactionStatus', TransactionStatusDto],
    ['Balance', BalanceResponseDto],
  ])('%s is compiled from the schema the OpenAPI document publishes', (name, dto) => {
    expect(responseSchemaOf(dto)).toEqual(resolved(published.components.schemas[name]));
  });

  it('POST /topup and POST /pay-bill publish exactly the order and dry-run schemas their answers are written with', () => {
    expect(resolved(okSchemaOf('/v1/partner/topup', 'post'))).toEqual({
      oneOf: [responseSchemaOf(TopupOrderDto), responseSchemaOf(TopupDryRunDto)],
    });
    expect(resolved(okSchemaOf('/v1/partner/pay-bill', 'post'))).toEqual({
      oneOf: [responseSchemaOf(BillPaymentOrderDto), responseSchemaOf(BillPaymentDryRunDto)],
    });
  });

  it.each([
    ['GET /balance', BalanceController, 'balance', '/v1/partner/balance'],
    ['GET /transactions/{order_id}', TransactionsController, 'transaction', '/v1/partner/transactions/{order_id}'],
  ])('%s gives Fastify its published 200 schema, and no schema for other statuses', (_, controller, method, path) => {
    const handler: unknown = Object.getOwnPropertyDescriptor(controller.prototype, method)?.value;
    expect(Reflect.getMetadata(FASTIFY_ROUTE_SCHEMA_METADATA, handler as object)).toEqual({
      response: { 200: resolved(okSchemaOf(path, 'get')) },
    });
  });

  it('a complete schema sends what was produced', () => {
    expectSentAsProduced(fastJsonStringify(responseSchemaOf(TransactionStatusDto))(transaction), transaction);
  });

  it('the check finds a property the schema lacks (dropped) and one it types differently (coerced)', () => {
    const { reference: _dropped, ...properties } = responseSchemaOf(TransactionStatusDto).properties as Schema;
    const lacking = fastJsonStringify({ type: 'object', properties });
    expect(() => expectSentAsProduced(lacking(transaction), transaction)).toThrow(/reference/);
    const mistyped = fastJsonStringify({
      type: 'object',
      properties: { ...properties, reference: { type: 'integer' } },
    });
    expect(() =>
      expectSentAsProduced(mistyped({ ...transaction, reference: '42' }), { ...transaction, reference: '42' }),
    ).toThrow(/reference/);
  });
});
