import { Corridor, CORRIDORS } from '../../../../src/domain/corridor/corridor';
import { parseCorridorPhone } from '../../../../src/domain/phone/corridor-phone';
import billers from '../../../../src/infrastructure/catalog/data/billers.json';
import numberPlans from '../../../../src/infrastructure/catalog/data/number-plans.json';
import operators from '../../../../src/infrastructure/catalog/data/operators.json';
import { JsonCatalog } from '../../../../src/infrastructure/catalog/json-catalog';

const corridors = Object.keys(CORRIDORS) as Corridor[];
const ID_DIGIT: Record<Corridor, string> = { IN: '1', BD: '2', SG: '3' };
const NATIONAL_LENGTH: Record<Corridor, number> = { IN: 10, BD: 10, SG: 8 };

describe('the catalog files shipped with the service', () => {
  it('load without errors', () => {
    expect(() => new JsonCatalog()).not.toThrow();
  });

  it('never give the same id to two operators or billers', () => {
    const ids = [...operators, ...billers].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never give the same api id to two operators or two billers', () => {
    const codes = [...operators.map((o) => o.api_operator_id), ...billers.map((b) => b.api_biller_id)];
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('number operators 101.. in India, 201.. in Bangladesh and 301.. in Singapore', () => {
    for (const operator of operators) {
      expect(String(operator.id)).toMatch(new RegExp(`^${ID_DIGIT[operator.corridor as Corridor]}\\d\\d$`));
    }
  });

  it('number billers 1001.. in India, 2001.. in Bangladesh and 3001.. in Singapore', () => {
    for (const biller of billers) {
      expect(String(biller.id)).toMatch(new RegExp(`^${ID_DIGIT[biller.corridor as Corridor]}\\d{3}$`));
    }
  });

  it('write every top-up amount limit with exactly two decimals', () => {
    for (const operator of operators) {
      expect(operator.min_amount).toMatch(/^\d+\.\d{2}$/);
      expect(operator.max_amount).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it("set every operator's minimum top-up below its maximum", () => {
    for (const operator of operators) {
      // Exact: both have two decimals, so the cent counts compare as integers.
      const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));
      expect(cents(operator.min_amount) < cents(operator.max_amount)).toBe(true);
      expect(cents(operator.min_amount) > 0n).toBe(true);
    }
  });

  it.each<[Corridor, string[]]>([
    ['IN', ['Airtel', 'Jio', 'Vi', 'BSNL']],
    ['BD', ['Grameenphone', 'Robi', 'Banglalink', 'Teletalk', 'Airtel']],
    ['SG', ['Singtel', 'StarHub', 'M1']],
  ])('offer the main mobile operators of %s: %j', (corridor, names) => {
    const offered = operators.filter((o) => o.corridor === corridor && o.active).map((o) => o.name);
    expect(offered).toEqual(expect.arrayContaining(names));
  });

  it.each<[Corridor, string[]]>([
    ['IN', ['POSTPAID_MOBILE', 'ELECTRICITY', 'WATER', 'GAS', 'BROADBAND', 'DTH', 'LANDLINE']],
    ['BD', ['POSTPAID_MOBILE', 'ELECTRICITY', 'WATER', 'GAS', 'BROADBAND', 'DTH']],
    ['SG', ['POSTPAID_MOBILE', 'ELECTRICITY', 'BROADBAND']],
  ])('offer bills of these kinds in %s: %j', (corridor, categories) => {
    const offered = new Set(billers.filter((b) => b.corridor === corridor && b.active).map((b) => b.category));
    expect([...offered]).toEqual(expect.arrayContaining(categories));
  });

  it('mark Indian billers, and only those, as BBPS billers', () => {
    for (const biller of billers) expect(biller.bbps).toBe(biller.corridor === 'IN');
  });

  it('never ask for the consumer number a second time among a biller’s extra params', () => {
    for (const biller of billers) {
      expect(biller.params.map((param) => param.name)).not.toContain('consumer_number');
    }
  });

  it.each(corridors)('cover in %s only numbers a partner can actually top up', (corridor) => {
    for (const { prefixes } of numberPlans[corridor]) {
      for (const prefix of prefixes) {
        const phone = prefix.padEnd(NATIONAL_LENGTH[corridor], '1');
        expect({ phone, accepted: parseCorridorPhone(phone, corridor).ok }).toEqual({ phone, accepted: true });
      }
    }
  });
});
