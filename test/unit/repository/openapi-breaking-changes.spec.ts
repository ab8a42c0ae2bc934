import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { breakingChanges } from '../../../tools/openapi/breaking-changes';
import { OPENAPI_SNAPSHOT_FILE } from '../../../tools/openapi/canonical-json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Document = Record<string, any>;

const snapshot = (): Document =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', OPENAPI_SNAPSHOT_FILE), 'utf8'));
const schemas = (document: Document): Document => document.components.schemas;
const changed = (edit: (document: Document) => void): string[] => {
  const after = snapshot();
  edit(after);
  return breakingChanges(snapshot(), after);
};

describe('the breaking-change check of the OpenAPI document', () => {
  it('finds nothing between the snapshot and itself', () => {
    expect(breakingChanges(snapshot(), snapshot())).toEqual([]);
  });

  it('accepts additions: a new operation, an optional request field, a new response field, a new error code', () => {
    expect(
      changed((document) => {
        document.paths['/v1/partner/receipts'] = { get: { responses: { 200: { description: 'receipts' } } } };
        schemas(document).TopupRequest.properties.note = { type: 'string' };
        schemas(document).TopupOrder.properties.fee = { type: 'string' };
        schemas(document).TopupOrder.required.push('fee');
        schemas(document).Error.properties.error.enum.push('a_new_code');
      }),
    ).toEqual([]);
  });

  it('flags a removed operation', () => {
    expect(changed((document) => delete document.paths['/v1/partner/balance'].get)).toEqual([
      'GET /v1/partner/balance: operation removed',
    ]);
  });

  it('flags a response field that is removed or renamed, or may be missing', () => {
    expect(
      changed((document) => {
        const balance = schemas(document).Balance;
        balance.properties.balance = balance.properties.available;
        delete balance.properties.available;
        balance.required = balance.required.filter((name: string) => name !== 'updated_at');
      }),
    ).toEqual([
      'GET /v1/partner/balance response 200: property available removed',
      'GET /v1/partner/balance response 200: property updated_at no longer always present',
    ]);
  });

  it('flags a field removed deep inside a referenced schema', () => {
    const changes = changed((document) => delete schemas(document).Operator.properties.max_amount);
    expect(changes).toEqual(['GET /v1/partner/operators response 200.operators[]: property max_amount removed']);
  });

  it('flags a response field that may now be null', () => {
    expect(changed((document) => (schemas(document).TopupOrder.properties.order_id.type = ['string', 'null']))).toEqual(
      ['POST /v1/partner/topup response 200.order_id: type widened from string to null|string'],
    );
  });

  it('flags a new required request field and a field made required', () => {
    expect(
      changed((document) => {
        const topup = schemas(document).TopupRequest;
        topup.properties.channel = { type: 'string' };
        topup.required.push('channel', 'reference');
      }),
    ).toEqual([
      'POST /v1/partner/topup request body: property reference made required',
      'POST /v1/partner/topup request body: required property channel added',
    ]);
  });

  it('flags a narrowed request type, a narrowed enum, tightened limits and a new pattern', () => {
    expect(
      changed((document) => {
        const topup = schemas(document).TopupRequest;
        topup.properties.amount.type = 'integer';
        topup.properties.reference.maxLength = 10;
        topup.properties.reference.pattern = '^[a-z]+$';
        const listTransactions = document.paths['/v1/partner/transactions'].get;
        const status = listTransactions.parameters.find((parameter: { name: string }) => parameter.name === 'status');
        status.schema.enum = status.schema.enum.filter((value: Json) => value !== 'FAILED');
      }),
    ).toEqual([
      'POST /v1/partner/topup request body.amount: type narrowed from number to integer',
      'POST /v1/partner/topup request body.reference: maxLength tightened from 100 to 10',
      'POST /v1/partner/topup request body.reference: pattern changed to ^[a-z]+$',
      'GET /v1/partner/transactions parameter query status: enum values removed: "FAILED"',
    ]);
  });

  it('flags a removed parameter and a new required header', () => {
    expect(
      changed((document) => {
        const list = document.paths['/v1/partner/transactions'].get;
        list.parameters = list.parameters.filter((parameter: { name: string }) => parameter.name !== 'reference');
        document.paths['/v1/partner/balance'].get.parameters = [
          { in: 'header', name: 'X-Partner-Version', required: true, schema: { type: 'string' } },
        ];
      }),
    ).toEqual([
      'GET /v1/partner/balance: required parameter header x-partner-version added',
      'GET /v1/partner/transactions: parameter query reference removed',
    ]);
  });
});
