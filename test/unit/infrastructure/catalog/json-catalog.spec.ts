import { Corridor } from '../../../../src/domain/corridor/corridor';
import { CatalogSources } from '../../../../src/infrastructure/catalog/catalog-data';
import { JsonCatalog } from '../../../../src/infrastructure/catalog/json-catalog';
import { CatalogDataError } from '../../../../src/infrastructure/catalog/json-fields';

describe('the catalog', () => {
  const catalog = new JsonCatalog();

  describe('lists what a partner can buy', () => {
    it('lists the Indian operators in rupees', () => {
      const indian = catalog.operators('IN');
      expect(indian.map((o) => o.name)).toEqual(expect.arrayContaining(['Airtel', 'Jio', 'Vi', 'BSNL']));
      for (const operator of indian) {
        expect(operator).toMatchObject({ corridor: 'IN', currency: 'INR', category: 'MOBILE_PREPAID' });
      }
    });

    it('never lists an operator of another corridor', () => {
      expect(catalog.operators('BD').every((o) => o.corridor === 'BD' && o.currency === 'BDT')).toBe(true);
      expect(catalog.operators('SG').every((o) => o.corridor === 'SG' && o.currency === 'SGD')).toBe(true);
    });

    it('finds Airtel India by its id with its top-up limits', () => {
      expect(catalog.operator(101)).toEqual({
        id: 101,
        apiOperatorId: 'IN_AIRTEL',
        name: 'Airtel',
        category: 'MOBILE_PREPAID',
        corridor: 'IN',
        currency: 'INR',
        minAmount: '10.00',
        maxAmount: '5000.00',
        active: true,
      });
    });

    it('finds nothing for an unknown id', () => {
      expect(catalog.operator(999)).toBeNull();
      expect(catalog.biller(9999)).toBeNull();
    });

    it('tells a partner that MSEDCL needs the billing unit besides the consumer number', () => {
      expect(catalog.biller(1006)).toMatchObject({
        name: 'Maharashtra State Electricity Distribution Co. Ltd (MSEDCL)',
        category: 'ELECTRICITY',
        bbps: true,
        consumerNumber: { label: 'Consumer No', pattern: '^[0-9]{12}$' },
        params: [{ name: 'billing_unit', label: 'Billing Unit (BU)', required: true, pattern: '^[0-9]{4}$' }],
      });
    });

    it('lists Bangladeshi billers in taka, none of them on BBPS', () => {
      const bangladeshi = catalog.billers('BD');
      expect(bangladeshi.map((b) => b.name)).toEqual(
        expect.arrayContaining(['DESCO Postpaid', 'Dhaka WASA', 'Titas Gas']),
      );
      expect(bangladeshi.every((b) => b.currency === 'BDT' && !b.bbps)).toBe(true);
    });

    it('does not let a caller change the catalog for everyone else', () => {
      const airtel = catalog.operator(101);
      expect(() => {
        if (airtel) Object.assign(airtel, { maxAmount: '999999.00' });
      }).toThrow(TypeError);
      expect(catalog.operator(101)?.maxAmount).toBe('5000.00');
    });
  });

  describe('tells which operator a mobile number belongs to', () => {
    it.each<[Corridor, string, string]>([
      ['IN', '+919876540001', 'Airtel'],
      ['IN', '+917021012345', 'Jio'],
      ['IN', '+919820012345', 'Vi'],
      ['IN', '+919400012345', 'BSNL'],
      ['IN', '+919868012345', 'MTNL'],
      ['BD', '+8801712340001', 'Grameenphone'],
      ['BD', '+8801312340001', 'Grameenphone'],
      ['BD', '+8801812340001', 'Robi'],
      ['BD', '+8801912340001', 'Banglalink'],
      ['BD', '+8801412340001', 'Banglalink'],
      ['BD', '+8801512340001', 'Teletalk'],
      ['BD', '+8801612340001', 'Airtel'],
      ['SG', '+6581230001', 'M1'],
      ['SG', '+6591230001', 'Singtel'],
      ['SG', '+6592340001', 'StarHub'],
      ['SG', '+6589120001', 'SIMBA'],
    ])('in %s, %s is %s', (corridor, phone, name) => {
      expect(catalog.detectOperator(corridor, phone)?.name).toBe(name);
    });

    it('prefers the longer prefix: +65 880… is Circles.Life although +65 88… is M1', () => {
      expect(catalog.detectOperator('SG', '+6588012345')?.name).toBe('Circles.Life');
      expect(catalog.detectOperator('SG', '+6588212345')?.name).toBe('M1');
    });

    it.each<[Corridor, string]>([
      ['IN', '+8801712340001'],
      ['SG', '+919876540001'],
      ['IN', '+917000012345'],
      ['IN', '+91'],
      ['IN', '919876540001'],
      ['IN', '+91 98765 40001'],
    ])('in %s, does not guess for %s', (corridor, phone) => {
      expect(catalog.detectOperator(corridor, phone)).toBeNull();
    });
  });

  describe('with an operator switched off', () => {
    const operatorA = {
      id: 101,
      api_operator_id: 'IN_A',
      name: 'A',
      corridor: 'IN',
      min_amount: '10.00',
      max_amount: '100.00',
    };
    const switchedOff = new JsonCatalog({
      operators: [
        { ...operatorA, active: true },
        { ...operatorA, id: 102, api_operator_id: 'IN_B', name: 'B', active: false },
      ],
      billers: [],
      numberPlans: {
        IN: [
          { operator_id: 101, prefixes: ['98'] },
          { operator_id: 102, prefixes: ['987'] },
        ],
      },
    });

    it('no longer lists it', () => {
      expect(switchedOff.operators('IN').map((o) => o.id)).toEqual([101]);
    });

    it('still describes it by id, for past orders', () => {
      expect(switchedOff.operator(102)).toMatchObject({ name: 'B', active: false });
    });

    it('does not detect it, nor hand its numbers to the operator of a shorter prefix', () => {
      expect(switchedOff.detectOperator('IN', '+919876540001')).toBeNull();
      expect(switchedOff.detectOperator('IN', '+919812345678')?.id).toBe(101);
    });
  });

  describe('refuses to start on broken data files', () => {
    const operator = {
      id: 101,
      api_operator_id: 'IN_A',
      name: 'A',
      corridor: 'IN',
      min_amount: '10.00',
      max_amount: '100.00',
      active: true,
    };
    const biller = {
      id: 1001,
      api_biller_id: 'IN_X',
      name: 'X',
      category: 'ELECTRICITY',
      corridor: 'IN',
      bbps: true,
      consumer_number: { label: 'Consumer Number', pattern: null },
      params: [],
      active: true,
    };
    const withConsumerPattern = (pattern: string) => ({ ...biller, consumer_number: { label: 'C', pattern } });
    const load =
      (overrides: Partial<CatalogSources>): (() => JsonCatalog) =>
      () =>
        new JsonCatalog({ operators: [operator], billers: [biller], numberPlans: { IN: [] }, ...overrides });

    it('accepts the minimal valid data used below', () => {
      expect(load({})).not.toThrow();
    });

    it.each<[string, Partial<CatalogSources>, string]>([
      [
        'a minimum equal to the maximum',
        { operators: [{ ...operator, max_amount: '10.00' }] },
        'min_amount 10.00 must be less than max_amount 10.00',
      ],
      [
        'an amount without two decimals',
        { operators: [{ ...operator, min_amount: '10' }] },
        'operators.json[0].min_amount',
      ],
      ['a zero minimum', { operators: [{ ...operator, min_amount: '0.00' }] }, 'must be more than zero'],
      ['an unknown corridor', { operators: [{ ...operator, corridor: 'US' }] }, 'must be one of IN, BD, SG'],
      ['a misspelt field', { operators: [{ ...operator, maxAmount: '1.00' }] }, 'has an unknown field "maxAmount"'],
      ['a missing field', { operators: [{ id: 101 }] }, 'is missing the field "api_operator_id"'],
      ['an operator and a biller with one id', { billers: [{ ...biller, id: 101 }] }, 'id 101 appears more than once'],
      [
        'a BBPS biller outside India',
        { billers: [{ ...biller, corridor: 'BD' }] },
        'must be false outside the IN corridor',
      ],
      ['an unknown bill category', { billers: [{ ...biller, category: 'TOLLS' }] }, 'billers.json[0].category'],
      ['an unanchored pattern', { billers: [withConsumerPattern('[0-9]+')] }, 'must start with ^ and end with $'],
      ['a broken pattern', { billers: [withConsumerPattern('^([0-9]$')] }, 'is not a valid regular expression'],
      [
        'a param repeating consumer_number',
        { billers: [{ ...biller, params: [{ name: 'consumer_number', label: 'C', required: true, pattern: null }] }] },
        'must not repeat consumer_number',
      ],
      [
        'a number plan for an unknown operator',
        { numberPlans: { IN: [{ operator_id: 105, prefixes: ['98'] }] } },
        '105 is not in operators.json',
      ],
      [
        'a number plan giving an Indian operator Singapore numbers',
        { numberPlans: { SG: [{ operator_id: 101, prefixes: ['8'] }] } },
        '101 is an operator of IN, not SG',
      ],
      [
        'a prefix listed twice',
        { numberPlans: { IN: [{ operator_id: 101, prefixes: ['98', '98'] }] } },
        'prefix 98 appears more than once',
      ],
      [
        'a prefix with a plus',
        { numberPlans: { IN: [{ operator_id: 101, prefixes: ['+91'] }] } },
        'number-plans.json.IN[0].prefixes[0]',
      ],
      ['operators that are not a list', { operators: {} }, 'operators.json: must be an array'],
    ])('refuses %s', (_case, overrides, message) => {
      expect(load(overrides)).toThrow(CatalogDataError);
      expect(load(overrides)).toThrow(message);
    });
  });
});
