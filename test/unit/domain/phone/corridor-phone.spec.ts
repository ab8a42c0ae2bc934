import { Corridor } from '../../../../src/domain/corridor/corridor';
import { parseCorridorPhone } from '../../../../src/domain/phone/corridor-phone';

const accepted = (input: string, corridor: Corridor): string => {
  const result = parseCorridorPhone(input, corridor);
  if (!result.ok)
    throw new Error(`expected ${JSON.stringify(input)} to be accepted in ${corridor}, got "${result.detail}"`);
  return result.e164;
};

const refusal = (input: string, corridor: Corridor): string => {
  const result = parseCorridorPhone(input, corridor);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused in ${corridor}, got ${result.e164}`);
  return result.detail;
};

describe('a recipient phone number', () => {
  describe('in the India corridor', () => {
    it.each(['+919876540001', '+919876540002', '+919876540003', '+919876540004', '+919876540005'])(
      'accepts the sandbox number %s',
      (phone) => expect(accepted(phone, 'IN')).toBe(phone),
    );

    it.each([
      ['9876540001', 'the 10-digit national number'],
      ['09876540001', 'the national number with a leading 0'],
      ['919876540001', 'the country code 91 without a plus'],
      ['0091 98765 40001', 'the international dialling prefix 00'],
      ['+91 (98765) 40001', 'spaces and parentheses'],
      ['+91-98765-40001', 'dashes'],
      ['98765.40001', 'dots'],
    ])('accepts %s, written with %s', (phone) => expect(accepted(phone, 'IN')).toBe('+919876540001'));

    it('reads a 10-digit number starting with 91 as a national number, not as a country code', () => {
      expect(accepted('9198765400', 'IN')).toBe('+919198765400');
    });

    it('gives back the national number without the country code', () => {
      expect(parseCorridorPhone('+919876540001', 'IN')).toEqual({
        ok: true,
        e164: '+919876540001',
        nationalNumber: '9876540001',
      });
    });

    it('refuses a UK number and says it is not in the IN corridor', () => {
      expect(refusal('+447700900123', 'IN')).toBe('phone: +447700900123 is not a number in the IN corridor');
    });

    it('refuses a UK number dialled with 00', () => {
      expect(refusal('00447700900123', 'IN')).toBe('phone: +447700900123 is not a number in the IN corridor');
    });

    it('refuses a Bangladeshi number', () => {
      expect(refusal('+8801712340001', 'IN')).toBe('phone: +8801712340001 is not a number in the IN corridor');
    });

    it('refuses a Delhi landline, which cannot be topped up', () => {
      expect(refusal('+911123456789', 'IN')).toBe('phone: +911123456789 is not a mobile number');
    });

    it('refuses a number that is too short', () => {
      expect(refusal('98765', 'IN')).toBe('phone: 98765 is not a valid mobile number in the IN corridor');
    });
  });

  describe('in the Bangladesh corridor', () => {
    it.each(['+8801712340001', '+8801712340002', '+8801712340003', '+8801712340004', '+8801712340005'])(
      'accepts the sandbox number %s',
      (phone) => expect(accepted(phone, 'BD')).toBe(phone),
    );

    it.each(['01712340001', '1712340001', '8801712340001', '+880 1712-340001'])('accepts %s', (phone) => {
      expect(accepted(phone, 'BD')).toBe('+8801712340001');
    });

    it('refuses an Indian number', () => {
      expect(refusal('+919876540001', 'BD')).toBe('phone: +919876540001 is not a number in the BD corridor');
    });
  });

  describe('in the Singapore corridor', () => {
    it.each(['+6581230001', '+6581230002', '+6581230003', '+6581230004', '+6581230005'])(
      'accepts the sandbox number %s',
      (phone) => expect(accepted(phone, 'SG')).toBe(phone),
    );

    it.each([
      ['81230001', '+6581230001'],
      ['91230001', '+6591230001'],
      ['8123 0001', '+6581230001'],
      ['6581230001', '+6581230001'],
    ])('accepts %s', (phone, e164) => expect(accepted(phone, 'SG')).toBe(e164));

    it('refuses a Singapore fixed line starting with 6', () => {
      expect(refusal('61234567', 'SG')).toBe('phone: +6561234567 is not a mobile number');
    });

    it('refuses a US number', () => {
      expect(refusal('+1 212 555 0100', 'SG')).toBe('phone: +12125550100 is not a number in the SG corridor');
    });
  });

  describe('whatever the corridor', () => {
    it.each([
      ['an empty string', ''],
      ['only spaces', '   '],
      ['only a plus sign', '+'],
    ])('refuses %s as missing', (_case, phone) => {
      expect(refusal(phone, 'IN')).toBe('phone: is required');
    });

    it.each([
      ['letters', '98765abcde'],
      ['a NUL byte', '98765\u000040001'],
      ['a plus sign in the middle', '91+9876540001'],
      ['a tab', '98765\t40001'],
      ['a slash', '98765/40001'],
    ])('refuses a number containing %s', (_case, phone) => {
      expect(refusal(phone, 'IN')).toBe(
        'phone: may contain only digits, spaces, dashes, dots, parentheses and a leading +',
      );
    });

    it('reads a number asked again the same way, and one text differently in each corridor', () => {
      for (let round = 0; round < 3; round++) {
        expect(accepted('98765 40001', 'IN')).toBe('+919876540001');
        expect(refusal('98765 40001', 'SG')).toMatch(/^phone: /);
        expect(accepted('8123 4567', 'SG')).toBe('+6581234567');
      }
      const first = parseCorridorPhone('+91 98765 40001', 'IN');
      expect(Object.isFrozen(first)).toBe(true);
      expect(parseCorridorPhone('+91 98765 40001', 'IN')).toEqual(first);
    });

    it('refuses a number longer than 20 characters', () => {
      expect(refusal('+91 98765 40001 00000 0', 'IN')).toBe('phone: must be at most 20 characters');
    });

    it('refuses a 5,000-digit number for its length alone', () => {
      expect(refusal('9'.repeat(5000), 'IN')).toBe('phone: must be at most 20 characters');
    });

    it.each<[Corridor, string]>([
      ['IN', 'x'],
      ['BD', '123'],
      ['SG', '+44 7700 900123'],
      ['IN', ''],
    ])('starts every refusal in %s with "phone: "', (corridor, phone) => {
      expect(refusal(phone, corridor)).toMatch(/^phone: /);
    });
  });
});
