import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { Corridor, CORRIDORS } from '../corridor/corridor';

export type CorridorPhone = { ok: true; e164: string; nationalNumber: string } | { ok: false; detail: string };

const MAX_LENGTH = 20;
// Checked before the library sees the text, so oversized or binary input is refused cheaply.
const ALLOWED_SHAPE = /^ *\+?[0-9 ().-]*$/;
const ACCEPTED_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * Reads a recipient's mobile number for a corridor and returns it in E.164.
 * Accepts international form ("+91…", "0091…") and national form ("98765…", "098765…");
 * the country code without its plus ("91…") only when the digits are not already a valid national number.
 */
export const parseCorridorPhone = (input: string, corridor: Corridor): CorridorPhone => {
  if (input.length > MAX_LENGTH) return refuse(`must be at most ${MAX_LENGTH} characters`);
  const key = `${corridor} ${input}`;
  const known = recentlyRead.get(key);
  if (known !== undefined) return known;
  const read = readCorridorPhone(input, corridor);
  // Cleared rather than evicted one by one: the bound only keeps hostile input from growing it without end.
  if (recentlyRead.size >= RECENTLY_READ_MAX) recentlyRead.clear();
  recentlyRead.set(key, Object.freeze(read));
  return read;
};

/**
 * Numbers read lately, by corridor and text as given: partners top up the same numbers again and
 * again, and reading one with the full metadata is the costliest step of a topup's validation.
 */
const recentlyRead = new Map<string, CorridorPhone>();
const RECENTLY_READ_MAX = 10_000;

const readCorridorPhone = (input: string, corridor: Corridor): CorridorPhone => {
  if (!ALLOWED_SHAPE.test(input)) {
    return refuse('may contain only digits, spaces, dashes, dots, parentheses and a leading +');
  }
  const digits = input.replace(/\D/g, '');
  if (digits === '') return refuse('is required');

  if (input.trimStart().startsWith('+')) return judge(`+${digits}`, corridor);

  const national = judge(digits, corridor);
  const callingCode = getCountryCallingCode(CORRIDORS[corridor].country);
  if (national.ok || !digits.startsWith(callingCode)) return national;
  const international = judge(`+${digits}`, corridor);
  return international.ok ? international : national;
};

const judge = (text: string, corridor: Corridor): CorridorPhone => {
  const country = CORRIDORS[corridor].country;
  const parsed = parsePhoneNumberFromString(text, country);
  if (!parsed) return refuse(`${text} is not a valid mobile number in the ${corridor} corridor`);
  if (parsed.country !== country && parsed.countryCallingCode !== getCountryCallingCode(country)) {
    return refuse(`${parsed.number} is not a number in the ${corridor} corridor`);
  }
  // With the full metadata a number is valid exactly when it has a type, so the type is asked once.
  const type = parsed.country === country ? parsed.getType() : undefined;
  if (type === undefined) return refuse(`${text} is not a valid mobile number in the ${corridor} corridor`);
  if (!ACCEPTED_TYPES.has(type)) return refuse(`${parsed.number} is not a mobile number`);
  return { ok: true, e164: parsed.number, nationalNumber: parsed.nationalNumber };
};

const refuse = (reason: string): CorridorPhone => ({ ok: false, detail: `phone: ${reason}` });
