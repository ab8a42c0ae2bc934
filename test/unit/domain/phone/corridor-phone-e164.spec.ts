import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { CORRIDORS, Corridor } from '../../../../src/domain/corridor/corridor';
import { CorridorPhone, mobileInE164, parseCorridorPhone } from '../../../../src/domain/phone/corridor-phone';

/**
 * A number given in E.164 form is read with the mobile-only metadata first (decision 0172). Whatever that accepts
 * must be exactly what the whole parse with the full metadata gives, so this sweeps every four-digit beginning of
 * the national number at the lengths around each country's mobile numbers and compares both that first reading and
 * the whole answer with that parse.
 */
const wholeParse = (e164: string, corridor: Corridor): CorridorPhone => {
  const country = CORRIDORS[corridor].country;
  const parsed = parsePhoneNumberFromString(e164, country);
  if (!parsed) return { ok: false, detail: `phone: ${e164} is not a valid mobile number in the ${corridor} corridor` };
  if (parsed.country !== country && parsed.countryCallingCode !== getCountryCallingCode(country))
    return { ok: false, detail: `phone: ${parsed.number} is not a number in the ${corridor} corridor` };
  const type = parsed.country === country ? parsed.getType() : undefined;
  if (type === undefined)
    return { ok: false, detail: `phone: ${e164} is not a valid mobile number in the ${corridor} corridor` };
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE')
    return { ok: false, detail: `phone: ${parsed.number} is not a mobile number` };
  return { ok: true, e164: parsed.number, nationalNumber: parsed.nationalNumber };
};

/** A fixed sequence of digits (a linear congruential generator), so a failure names a number that fails again. */
function digitsFrom(seed: number): (count: number) => string {
  let state = seed;
  return (count) => {
    let digits = '';
    for (let i = 0; i < count; i++) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      digits += String(Math.floor((state / 2_147_483_648) * 10));
    }
    return digits;
  };
}

const SAMPLES: Record<Corridor, string> = { IN: '+919876540001', BD: '+8801712340001', SG: '+6581234567' };

const MOBILE_LENGTHS: Record<Corridor, readonly number[]> = { IN: [9, 10, 11], BD: [9, 10, 11], SG: [7, 8, 9] };

describe('a recipient number in E.164 form', () => {
  it('is read first with the mobile-only metadata in every corridor (no corridor shares its calling code)', () => {
    expect((Object.keys(CORRIDORS) as Corridor[]).map((corridor) => mobileInE164(SAMPLES[corridor], corridor))).toEqual(
      (Object.keys(CORRIDORS) as Corridor[]).map((corridor) => wholeParse(SAMPLES[corridor], corridor)),
    );
  });

  it('leaves to the whole parse a number of another country and a landline, which it refuses with its reasons', () => {
    expect(mobileInE164('+6581234567', 'IN')).toBeNull();
    expect(mobileInE164('+911123456789', 'IN')).toBeNull();
    expect(parseCorridorPhone('+911123456789', 'IN')).toEqual({
      ok: false,
      detail: 'phone: +911123456789 is not a mobile number',
    });
  });

  it.each(Object.keys(CORRIDORS) as Corridor[])(
    'reads as the whole parse with the full metadata reads it, over every four-digit beginning (%s)',
    (corridor) => {
      const callingCode = getCountryCallingCode(CORRIDORS[corridor].country);
      const fill = digitsFrom(callingCode.length * 7919);
      const differences: string[] = [];
      let readFirst = 0;
      for (const length of MOBILE_LENGTHS[corridor]) {
        for (let beginning = 0; beginning < 10_000; beginning++) {
          const e164 = `+${callingCode}${String(beginning).padStart(4, '0')}${fill(length - 4)}`;
          const expected = wholeParse(e164, corridor);
          const first = mobileInE164(e164, corridor);
          if (first) readFirst++;
          if (first && JSON.stringify(first) !== JSON.stringify(expected) && differences.length < 5)
            differences.push(`${e164} read first as ${JSON.stringify(first)} instead of ${JSON.stringify(expected)}`);
          const read = parseCorridorPhone(e164, corridor);
          if (JSON.stringify(read) !== JSON.stringify(expected) && differences.length < 5)
            differences.push(`${e164}: ${JSON.stringify(read)} instead of ${JSON.stringify(expected)}`);
        }
      }
      expect(differences).toEqual([]);
      // The first reading is what most E.164 mobile numbers get: over a thousand in each sweep.
      expect(readFirst).toBeGreaterThan(1_000);
    },
  );
});
