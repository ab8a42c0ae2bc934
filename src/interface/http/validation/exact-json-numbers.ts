import { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../application/shared/service-error';

const NUMBER_LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A decimal's value as significant digits and a power of ten, with no leading or trailing zeros: equal values, equal forms. */
function canonical(text: string): string {
  const negative = text.startsWith('-');
  const [mantissa, exponentText] = text.replace(/^[-+]/, '').toLowerCase().split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = Number(exponentText ?? 0) - fraction.length;
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return `${negative ? '-' : ''}${digits}e${exponent}`;
}

/**
 * Up to 15 significant digits, no exponent and at most 20 characters (so between 1e-19 and 1e20, where doubles are
 * normal): every such decimal is read back exactly (a double carries 15 decimal digits), without building its forms.
 */
function plainlyExact(literal: string): boolean {
  if (literal.length > 20) return false;
  let significant = 0;
  for (let i = 0; i < literal.length; i++) {
    const code = literal.charCodeAt(i);
    if (code === 0x65 || code === 0x45) return false; // e, E
    if (code < 0x30 || code > 0x39) continue; // - or .
    if (significant === 0 && code === 0x30) continue; // a leading zero
    significant++;
  }
  // Trailing zeros of a fraction count here, so a few exact literals take the longer way; never the reverse.
  return significant <= 15;
}

// Whether a JSON number literal survives being read as a double: `199.999999999999999` reads as 200, so it
// does not; `100.50`, `1e2` and `0.1` do.
export function isExactAsDouble(literal: string): boolean {
  if (plainlyExact(literal)) return true;
  const value = Number(literal);
  return Number.isFinite(value) && canonical(String(value)) === canonical(literal);
}

/** The index after a string literal that starts at `start` (its opening quote). */
function endOfString(text: string, start: number): number {
  let end = start + 1;
  while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  return end + 1;
}

/** The first number literal a double cannot carry exactly, and where it begins, or null; strings are skipped. */
function firstInexactLiteral(text: string): { at: number; literal: string } | null {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') i = endOfString(text, i);
    else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER_LITERAL.lastIndex = i;
      const literal = NUMBER_LITERAL.exec(text)?.[0] ?? c;
      if (!isExactAsDouble(literal)) return { at: i, literal };
      i += literal.length;
    } else i += 1;
  }
  return null;
}

interface Frame {
  kind: 'object' | 'array';
  key: string;
  index: number;
  expectingKey: boolean;
}

/** The path (`params.arguments.amount`, `items[2]`) of the value that begins at `target`. */
function pathTo(text: string, target: number): string {
  const frames: Frame[] = [];
  let i = 0;
  while (i < target) {
    const c = text[i];
    if (c === '"') {
      const end = endOfString(text, i);
      const top = frames[frames.length - 1];
      if (top?.kind === 'object' && top.expectingKey) top.key = JSON.parse(text.slice(i, end)) as string;
      i = end;
    } else if (c === '{' || c === '[') {
      frames.push({ kind: c === '{' ? 'object' : 'array', key: '', index: 0, expectingKey: c === '{' });
      i += 1;
    } else if (c === '}' || c === ']') {
      frames.pop();
      i += 1;
    } else if (c === ':') {
      frames[frames.length - 1].expectingKey = false;
      i += 1;
    } else if (c === ',') {
      const top = frames[frames.length - 1];
      if (top.kind === 'array') top.index += 1;
      else top.expectingKey = true;
      i += 1;
    } else {
      i += 1; // whitespace, numbers, true, false, null
    }
  }
  return frames
    .map((frame, position) => (frame.kind === 'array' ? `[${frame.index}]` : `${position > 0 ? '.' : ''}${frame.key}`))
    .join('');
}

// The first number in already-parsed JSON text that a double cannot carry exactly, with its path
// (`params.arguments.amount`, `items[2]`), or null; the scan need not check the grammar. A body of exact numbers,
// nearly every one, is scanned once without keeping its keys.
export function firstInexactNumber(text: string): { path: string; literal: string } | null {
  const inexact = firstInexactLiteral(text);
  return inexact && { path: pathTo(text, inexact.at) || 'body', literal: inexact.literal };
}

// Fastify's JSON parser (with its prototype-poisoning checks) plus a scan of number literals: one a double cannot
// hold is refused (400 validation_failed), not rounded, so money is read as sent (decision 0086). Every JSON body
// passes here, the MCP endpoint's tool arguments included.
export function useExactNumberJsonParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      void parseJson(request, text, (error: Error | null, parsed?: unknown) => {
        if (error) {
          done(error, undefined);
          return;
        }
        const inexact = firstInexactNumber(text);
        if (inexact) {
          done(
            new ServiceError(
              'validation_failed',
              `${inexact.path}: ${inexact.literal.slice(0, 40)} has more significant digits than can be read exactly`,
            ),
            undefined,
          );
          return;
        }
        done(null, parsed);
      });
    },
  );
}
