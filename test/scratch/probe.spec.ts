import { STORES, TestService } from '../support/test-service';

describe.each(STORES)('probe %s', (store) => {
  let s: TestService;
  let key: string;
  beforeAll(async () => { s = await TestService.start({ store }); ({ sandboxKey: key } = await s.createPartner('IN')); });
  afterAll(async () => { await s.close(); });
  it('probes', async () => {
    const out: string[] = [];
    let n = 0; const hh = () => ({ authorization: `Bearer ${key}`, 'idempotency-key': `probe-key-${n++}-0001` });
    const cases: [string, string, string | Buffer | undefined, Record<string, string>][] = [
      ['malformed', '/topup', '{"operator_id":', { 'content-type': 'application/json' }],
      ['array', '/topup', '[]', { 'content-type': 'application/json' }],
      ['null', '/topup', 'null', { 'content-type': 'application/json' }],
      ['string', '/topup', '"hi"', { 'content-type': 'application/json' }],
      ['num', '/topup', '42', { 'content-type': 'application/json' }],
      ['1e309', '/topup', '{"operator_id":101,"phone":"+919876540001","amount":1e309}', { 'content-type': 'application/json' }],
      ['1e21', '/topup', '{"operator_id":101,"phone":"+919876540001","amount":1e21}', { 'content-type': 'application/json' }],
      ['NaN', '/topup', '{"operator_id":101,"phone":"+919876540001","amount":NaN}', { 'content-type': 'application/json' }],
      ['proto', '/topup', '{"operator_id":101,"phone":"+919876540001","amount":100,"__proto__":{"x":1}}', { 'content-type': 'application/json' }],
      ['ctor', '/topup', '{"operator_id":101,"phone":"+919876540001","amount":100,"constructor":{"prototype":{"x":1}}}', { 'content-type': 'application/json' }],
      ['text', '/topup', '{"operator_id":101}', { 'content-type': 'text/plain' }],
      ['noct', '/topup', Buffer.from('{"operator_id":101}'), {}],
      ['empty-json', '/topup', '', { 'content-type': 'application/json' }],
      ['nobody', '/topup', undefined, {}],
      ['big', '/topup', '{"reference":"' + 'a'.repeat(2 * 1024 * 1024) + '"}', { 'content-type': 'application/json' }],
      ['nul-phone', '/topup', JSON.stringify({ operator_id: 101, phone: '+9198765\u00000001', amount: 100 }), { 'content-type': 'application/json' }],
      ['lone-surrogate', '/topup', '{"operator_id":101,"phone":"+919876540001","amount":100,"reference":"a\\ud800b"}', { 'content-type': 'application/json' }],
      ['c1', '/topup', JSON.stringify({ operator_id: 101, phone: '+919876540001', amount: 100, reference: 'a\u0085b' }), { 'content-type': 'application/json' }],
      ['ctype-charset', '/topup', '{}', { 'content-type': 'application/json; charset=latin1' }],
      ['ctype-weird', '/topup', '{}', { 'content-type': 'application/json; charset=utf-16' }],
      ['bill-proto', '/bill-info', '{"biller_id":1006,"consumer_number":"1234560001","params":{"__proto__":{"a":"b"}}}', { 'content-type': 'application/json' }],
      ['bill-params-arr', '/bill-info', '{"biller_id":1006,"consumer_number":"1234560001","params":["a"]}', { 'content-type': 'application/json' }],
      ['bill-params-null', '/bill-info', '{"biller_id":1006,"consumer_number":"1234560001","params":null}', { 'content-type': 'application/json' }],
      ['bill-big-id', '/bill-info', '{"biller_id":1e400,"consumer_number":"1234560001"}', { 'content-type': 'application/json' }],
    ];
    for (const [name, path, body, headers] of cases) {
      const a = await s.request('POST', `/v1/partner${path}`, { rawBody: body as string, headers: { ...hh(), ...headers } });
      out.push(`${name}: ${a.status} ${a.text.slice(0, 200)}`);
    }
    for (const p of ['/transactions/%00abc', '/transactions/abc%C2%85', '/transactions?%00=1', '/transactions/' + 'x'.repeat(1000), '/transactions/' + 'x'.repeat(100), '/transactions/%F0%9F%98%80', '/transactions?reference=%00', '/operators?phone=%00', '/transactions?cursor=%00', '/transactions/%ud800', '/transactions/%ED%A0%80', '/operators?phone=abc&phone=def', '/billers?category=FOO']) {
      const a = await s.request('GET', `/v1/partner${p}`, { headers: hh() });
      out.push(`GET ${p.slice(0, 60)}: ${a.status} ${a.text.slice(0, 200)}`);
    }
    console.log(out.join('\n'));
  });
});
