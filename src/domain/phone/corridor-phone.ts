import { PhoneNumber } from 'libphonenumber-js/core';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import mobileMetadata from 'libphonenumber-js/metadata.mobile.json';
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
  const mobile = E164_DIGITS.test(text) ? mobileInE164(text, corridor) : null;
  if (mobile) return mobile;
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

const E164_DIGITS = /^\+[1-9]\d{1,14}$/;

/**
 * The `+` and calling code of each corridor whose code no other country shares, so that a number under it is of
 * the corridor's country (a number built from E.164 digits knows its code, not its country).
 */
const E164_PREFIXES: Partial<Record<Corridor, string>> = Object.fromEntries(
  Object.entries(CORRIDORS)
    .map(([corridor, { country }]) => [corridor, getCountryCallingCode(country)] as const)
    .filter(([, code]) => getCountries().filter((other) => getCountryCallingCode(other) === code).length === 1)
    .map(([corridor, code]) => [corridor, `+${code}`]),
);

/**
 * A number already in E.164 form, accepted when the library's mobile-only metadata types it as a mobile number of
 * the corridor's country: about half the cost of a whole parse with the full metadata, which every other
 * input, and every number this does not accept, still gets (so refusals keep their precise reasons). Each mobile
 * pattern lies inside its country's valid numbers, so what this accepts the full parse accepts with the same E.164
 * and national number (decision 0172; test/unit/domain/phone/corridor-phone-e164.spec.ts sweeps the ranges).
 */
export const mobileInE164 = (e164: string, corridor: Corridor): (CorridorPhone & { ok: true }) | null => {
  const prefix = E164_PREFIXES[corridor];
  // Another country's number, or none after the code, is left to the whole parse and its reasons.
  if (prefix === undefined || !e164.startsWith(prefix) || e164.length === prefix.length) return null;
  const number = new PhoneNumber(e164, mobileMetadata);
  if (number.getType() !== 'MOBILE') return null;
  return { ok: true, e164: number.number, nationalNumber: number.nationalNumber };
};

const refuse = (reason: string): CorridorPhone => ({ ok: false, detail: `phone: ${reason}` });
