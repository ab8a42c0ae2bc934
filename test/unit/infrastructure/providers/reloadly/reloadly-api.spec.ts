import {
  ProviderNotSentError,
  ProviderUnavailableError,
} from '../../../../../src/application/ports/provider-gateway.port';
import { ReloadlyApiClient } from '../../../../../src/infrastructure/providers/reloadly/reloadly-api';
import {
  ReloadlyAnswer,
  ReloadlyHttp,
  ReloadlyRequest,
} from '../../../../../src/infrastructure/providers/reloadly/reloadly-http';
import { ReloadlyApi } from '../../../../../src/infrastructure/providers/reloadly/reloadly-settings';
import { ReloadlyTokens } from '../../../../../src/infrastructure/providers/reloadly/reloadly-tokens';

const SETTINGS = {
  clientId: 'client',
  clientSecret: 'secret',
  authUrl: 'http://auth.invalid',
  topupsUrl: 'http://topups.invalid',
  utilitiesUrl: 'http://utilities.invalid',
  lowFloatThreshold: null,
  reportTimeZone: 'America/New_York',
};

/** Answers each call with the next scripted answer, and remembers what was asked. */
class ScriptedHttp extends ReloadlyHttp {
  readonly asked: ReloadlyRequest[] = [];

  constructor(private readonly answers: Partial<ReloadlyAnswer>[]) {
    super(SETTINGS, new ReloadlyTokens(SETTINGS));
  }

  override call(_api: ReloadlyApi, request: ReloadlyRequest): Promise<ReloadlyAnswer> {
    this.asked.push(request);
    const next = this.answers.shift();
    if (!next) throw new Error(`no answer scripted for ${request.method} ${request.path}`);
    return Promise.resolve({ status: 200, body: null, errorCode: null, message: null, retryAfterMs: null, ...next });
  }
}

const failure = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error,
  );

/** What each of Reloadly's answers means, read by ReloadlyApiClient: an answer that is not the documented JSON decides nothing. */
describe('Reloadly’s answers, as the API client reads them', () => {
  const payment = (id: number, referenceId: string) => ({
    code: 'PAYMENT_PROCESSED_SUCCESSFULLY',
    message: 'The payment was processed successfully',
    transaction: { id, status: 'SUCCESSFUL', referenceId, amount: 850.5, amountCurrencyCode: 'INR' },
  });
  const topupRequest = {
    operatorId: 1201,
    amount: '199.00',
    useLocalAmount: true,
    customIdentifier: 'ord_1',
    recipientPhone: { countryCode: 'IN', number: '9876540001' },
  };

  it('a payment by its id is the item of that id, not the first item that reads as a payment', async () => {
    const api = new ReloadlyApiClient(new ScriptedHttp([{ body: [payment(12, 'ord_other'), payment(13, 'ord_2')] }]));
    expect(await api.paymentById('13')).toMatchObject({ id: '13', referenceId: 'ord_2' });
  });

  it('a payment answer that holds no payment of the asked id, or is no JSON, says nothing of it', async () => {
    const other = new ReloadlyApiClient(new ScriptedHttp([{ body: [payment(12, 'ord_other')] }]));
    expect(await failure(other.paymentById('13'))).toBeInstanceOf(ProviderUnavailableError);
    const html = new ReloadlyApiClient(new ScriptedHttp([{ body: null }]));
    expect(await failure(html.paymentById('13'))).toBeInstanceOf(ProviderUnavailableError);
    const notFound = new ReloadlyApiClient(new ScriptedHttp([{ status: 404 }]));
    expect(await notFound.paymentById('13')).toBeNull();
  });

  it('a topup status answered with a 200 that is not the topup asked about says nothing of it', async () => {
    const html = new ReloadlyApiClient(new ScriptedHttp([{ body: null }]));
    expect(await failure(html.topupByTransactionId('4602843'))).toBeInstanceOf(ProviderUnavailableError);
    const another = new ReloadlyApiClient(
      new ScriptedHttp([{ body: { transactionId: 1, status: 'SUCCESSFUL', customIdentifier: 'ord_other' } }]),
    );
    expect(await failure(another.topupByTransactionId('4602843'))).toBeInstanceOf(ProviderUnavailableError);
  });

  it('an operator answered with a 200 that is no operator cannot be read; a 404 is "no such operator"', async () => {
    const html = new ReloadlyApiClient(new ScriptedHttp([{ body: null }]));
    expect(await failure(html.operatorById(1201))).toBeInstanceOf(ProviderUnavailableError);
    const notFound = new ReloadlyApiClient(new ScriptedHttp([{ status: 404, errorCode: 'OPERATOR_NOT_FOUND' }]));
    expect(await notFound.operatorById(1201)).toBeNull();
  });

  it('a report page that is no JSON is no empty report', async () => {
    const api = new ReloadlyApiClient(new ScriptedHttp([{ body: null }]));
    expect(await failure(api.topupByCustomIdentifier('ord_1'))).toBeInstanceOf(ProviderUnavailableError);
    const empty = new ReloadlyApiClient(new ScriptedHttp([{ body: { content: [], totalPages: 0 } }]));
    expect(await empty.topupByCustomIdentifier('ord_1')).toBeNull();
  });

  it('a biller is looked up by its id in the billers list, every page read', async () => {
    const biller = (id: number) => ({
      id,
      name: `Biller ${id}`,
      localAmountSupported: true,
      localTransactionCurencyCode: 'INR',
    });
    const http = new ScriptedHttp([
      { body: { content: [biller(300)], totalPages: 2 } },
      { body: { content: [biller(301)], totalPages: 2 } },
    ]);
    expect(await new ReloadlyApiClient(http).billerById(301)).toMatchObject({
      id: 301,
      localAmountSupported: true,
      localTransactionCurrencyCode: 'INR',
    });
    expect(http.asked.map((request) => request.query)).toEqual([
      { id: '301', page: '1', size: '200' },
      { id: '301', page: '2', size: '200' },
    ]);
    expect(
      await new ReloadlyApiClient(new ScriptedHttp([{ body: { content: [], totalPages: 0 } }])).billerById(301),
    ).toBeNull();
  });

  it('a send answered 429 was not processed: not sent, with Reloadly’s reset as its retryAfterMs', async () => {
    const api = new ReloadlyApiClient(
      new ScriptedHttp([{ status: 429, errorCode: 'RATE_LIMIT_REACHED', retryAfterMs: 60_000 }]),
    );
    const refused = await failure(api.sendTopup(topupRequest));
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    expect(refused).toMatchObject({
      retryAfterMs: 60_000,
      message:
        'reloadly: POST /topups answered HTTP 429 RATE_LIMIT_REACHED: the request was turned away unprocessed; sent again after 60 s',
    });
  });

  it('a send still answered 401 after a new token was not processed either: not sent', async () => {
    const api = new ReloadlyApiClient(new ScriptedHttp([{ status: 401, errorCode: 'TOKEN_EXPIRED' }]));
    const refused = await failure(api.sendTopup(topupRequest));
    expect(refused).toBeInstanceOf(ProviderNotSentError);
    expect((refused as Error).message).toContain('HTTP 401 TOKEN_EXPIRED');
  });

  it('a send answered 200 with something that is not the transaction is no acceptance: the order’s fate is unknown', async () => {
    const api = new ReloadlyApiClient(new ScriptedHttp([{ status: 200, body: null }]));
    expect(await api.sendTopup(topupRequest)).toEqual({
      kind: 'refused',
      httpStatus: 200,
      errorCode: null,
      message: null,
    });
  });

  it('a read answered 429 leaves the question open until Reloadly’s reset', async () => {
    const api = new ReloadlyApiClient(
      new ScriptedHttp([{ status: 429, errorCode: 'RATE_LIMIT_REACHED', retryAfterMs: 5_000 }]),
    );
    const refused = await failure(api.topupByCustomIdentifier('ord_1'));
    expect(refused).toBeInstanceOf(ProviderUnavailableError);
    expect(refused).not.toBeInstanceOf(ProviderNotSentError);
    expect(refused).toMatchObject({ retryAfterMs: 5_000 });
  });
});
