import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { applyDecorators } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import fc from 'fast-check';
import { IsString, MaxLength, MinLength, isString, length } from 'class-validator';
import { ServiceError } from '../../../../../src/application/shared/service-error';
import { TOOL_INPUTS } from '../../../../../src/interface/mcp/tool-schemas';
import { compiledValidatorOf } from '../../../../../src/interface/shared/requests/compiled-validator';
import { withFieldCheck } from '../../../../../src/interface/shared/requests/field-checks';
import { TopupDto } from '../../../../../src/interface/shared/requests/topup.dto';
import { BillInfoDto } from '../../../../../src/interface/shared/requests/bill-info.dto';
import { PayBillDto } from '../../../../../src/interface/shared/requests/pay-bill.dto';
import { classValidated, validatedRequest } from '../../../../../src/interface/shared/requests/validated-request';
import { findUnsafeText } from '../../../../../src/interface/shared/safe-text';
import { hostileValue, requestValues } from '../../../../support/request-values';

/**
 * The compiled request checks against class-validator, for every DTO class a request is
 * validated through. Both sides read the same field decorators (request-fields.ts states each
 * limit once, for class-validator and for the field's check), and the bodies are generated at
 * the limits the DTO publishes: a limit changed on one side only is found, as the last tests
 * show with a field declared twice over.
 */

/** Fixed seed: a failure replays exactly; fast-check prints the counterexample. */
const RUNS = { seed: 22, numRuns: 3000 };
const BODY = { root: 'body', noun: 'request' };

type Dto = new () => object;

/** The @Body() classes of every controller's handlers: what the global pipe validates REST bodies through. */
function restBodyClasses(): Dto[] {
  const root = join(__dirname, '../../../../../src/interface');
  const controllers = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.controller.ts'))
    .flatMap((file) => Object.values(jest.requireActual<Record<string, unknown>>(join(root, file))))
    .filter((value): value is Dto => typeof value === 'function');
  const bodies: Dto[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const handler of Object.getOwnPropertyNames(prototype)) {
      const parameters = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
        string,
        { index: number }
      >;
      const types = (Reflect.getMetadata('design:paramtypes', prototype, handler) ?? []) as Dto[];
      for (const [key, { index }] of Object.entries(parameters)) {
        if (key.startsWith(`${RouteParamtypes.BODY}:`) && types[index] !== Object) bodies.push(types[index]);
      }
    }
  }
  return bodies;
}

/** Every class a REST body or an agent tool's arguments are validated through. */
const DTOS = [...new Set([...restBodyClasses(), ...Object.values(TOOL_INPUTS)])];

/** The DTOs declared through request-fields.ts: these must have their compiled checks. */
const CHECKED = [TopupDto, BillInfoDto, PayBillDto, ...Object.values(TOOL_INPUTS)];

type Outcome = { accepted: object } | { refused: string };

function outcome(validate: () => object): Outcome {
  try {
    return { accepted: validate() };
  } catch (error) {
    if (error instanceof ServiceError) return { refused: `${error.code}: ${error.detail ?? ''}` };
    throw error;
  }
}

/** The request validation as it was before the compiled checks: class-validator alone. */
function classValidatorOnly(dto: Dto, value: unknown): object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ServiceError('validation_failed', `${BODY.root}: must be a JSON object`);
  }
  const problem = findUnsafeText(value, '', BODY.root);
  if (problem) throw new ServiceError('validation_failed', problem);
  return classValidated(dto, value, BODY);
}

/** Same class, same own fields, same values (-0 is not 0, NaN is NaN), nested objects alike. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  return keys.every((key) => Object.hasOwn(b, key) && sameData(left[key], right[key]));
}

/** Values as JSON.parse or an object literal makes them: no object of a class (Date, Map, …) anywhere. */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every(isPlainData);
}

/**
 * Whether the compiled checks judge a body as class-validator does: for plain data, both
 * accept it with equal instances or both refuse it; a body holding an object of some class is
 * left to class-validator (class-transformer maps those its own way). Only bodies of safe text
 * reach either (findUnsafeText refuses the rest first, `__proto__` and `constructor` keys
 * included), so those are not theirs to judge.
 */
function judgedAlike(dto: Dto): (value: Record<string, unknown>) => boolean {
  const compiled = compiledValidatorOf(dto);
  return (value) => {
    if (!compiled || findUnsafeText(value, '', BODY.root) !== null) return true;
    const byCompiled = compiled(value);
    if (!isPlainData(value)) return byCompiled === null;
    const byClassValidator = outcome(() => classValidated(dto, value, BODY));
    if ('refused' in byClassValidator) return byCompiled === null;
    return byCompiled !== null && byCompiled instanceof dto && sameData(byCompiled, byClassValidator.accepted);
  };
}

describe('compiled request checks', () => {
  it('exist for every DTO declared through the request fields', () => {
    expect(DTOS).toEqual(expect.arrayContaining(CHECKED));
    for (const dto of CHECKED) {
      expect({ dto: dto.name, compiled: compiledValidatorOf(dto) !== null }).toEqual({ dto: dto.name, compiled: true });
    }
  });

  it('are built once per class', () => {
    expect(compiledValidatorOf(TopupDto)).toBe(compiledValidatorOf(TopupDto));
  });

  it('accept a good topup body as the TopupDto instance it describes', () => {
    const body = { operator_id: 101, phone: '+919876540001', amount: 100, reference: 'inv-1', validate_only: false };
    const instance = compiledValidatorOf(TopupDto)?.(body);
    expect(instance).toBeInstanceOf(TopupDto);
    expect(instance).toEqual(body);
  });

  it.each<Dto>([TopupDto, PayBillDto, TOOL_INPUTS.service_topup, TOOL_INPUTS.service_pay_bill])(
    '%p refuses a validate_only that is not a JSON boolean, null included, on both paths',
    (dto) => {
      const good =
        dto === TopupDto || dto === TOOL_INPUTS.service_topup
          ? { operator_id: 101, phone: '+919876540001', amount: 100 }
          : { biller_id: 1005, consumer_number: '1234560001', amount: 500 };
      const extra =
        dto === TOOL_INPUTS.service_topup || dto === TOOL_INPUTS.service_pay_bill
          ? { idempotency_key: 'agent-key-1' }
          : {};
      for (const value of [null, 'true', 'false', '', 0, 1, {}, [true]]) {
        const body = { ...good, ...extra, validate_only: value };
        expect(compiledValidatorOf(dto)?.(body)).toBeNull();
        expect(outcome(() => validatedRequest(dto, body, BODY))).toEqual({
          refused: 'validation_failed: validate_only: must be true or false',
        });
      }
      for (const value of [true, false, undefined]) {
        expect(outcome(() => validatedRequest(dto, { ...good, ...extra, validate_only: value }, BODY))).toHaveProperty(
          'accepted',
        );
      }
    },
  );

  describe.each(DTOS.map((dto) => [dto.name, dto] as const))('%s', (_name, dto) => {
    it('accepts exactly the bodies class-validator accepts, as equal instances', () => {
      fc.assert(fc.property(requestValues(dto), judgedAlike(dto)), RUNS);
    });

    it('leaves every answer of the request validation as it was, refusals word for word', () => {
      const anyBody = fc.oneof({ weight: 4, arbitrary: requestValues(dto) }, { weight: 1, arbitrary: hostileValue });
      fc.assert(
        fc.property(anyBody, (value) => {
          const now = outcome(() => validatedRequest(dto, value, BODY));
          const before = outcome(() => classValidatorOnly(dto, value));
          if ('refused' in before) return 'refused' in now && now.refused === before.refused;
          return 'accepted' in now && sameData(now.accepted, before.accepted);
        }),
        RUNS,
      );
    });
  });
});

describe('the differential property finds a limit stated on one side only', () => {
  const PHONE_MAX = 20;
  const phoneDecorators = applyDecorators(IsString(), MinLength(1), MaxLength(PHONE_MAX));
  const phoneCheck = (max: number) => (value: unknown) => isString(value) && length(value, 1, max);
  const differenceFound = (dto: Dto): boolean =>
    fc.check(fc.property(requestValues(dto), judgedAlike(dto)), RUNS).failed;

  it('not with the limit stated once', () => {
    class SameLimit extends TopupDto {}
    withFieldCheck({ optional: false, nullAllowed: true, accepts: phoneCheck(PHONE_MAX) }, phoneDecorators)(
      SameLimit.prototype,
      'phone',
    );
    expect(differenceFound(SameLimit)).toBe(false);
  });

  it('a stricter compiled check', () => {
    class StricterCheck extends TopupDto {}
    withFieldCheck({ optional: false, nullAllowed: true, accepts: phoneCheck(PHONE_MAX - 1) }, phoneDecorators)(
      StricterCheck.prototype,
      'phone',
    );
    expect(differenceFound(StricterCheck)).toBe(true);
  });

  it('a more lenient compiled check', () => {
    class LenientCheck extends TopupDto {}
    withFieldCheck({ optional: false, nullAllowed: true, accepts: phoneCheck(PHONE_MAX + 1) }, phoneDecorators)(
      LenientCheck.prototype,
      'phone',
    );
    expect(differenceFound(LenientCheck)).toBe(true);
  });

  it('none with a class-validator decorator the field check does not know of: that class is left to class-validator', () => {
    class ExtraDecorator extends TopupDto {}
    withFieldCheck({ optional: false, nullAllowed: true, accepts: phoneCheck(PHONE_MAX) }, phoneDecorators)(
      ExtraDecorator.prototype,
      'phone',
    );
    MaxLength(PHONE_MAX - 1)(ExtraDecorator.prototype, 'phone');
    // Such a class is left to class-validator altogether.
    expect(compiledValidatorOf(ExtraDecorator)).toBeNull();
  });
});
