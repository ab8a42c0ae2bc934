import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestService } from '../../support/test-service';

/**
 * A request's limits are declared once, in its DTO. Here the topup DTO module is loaded
 * with one limit changed (phone: at most 12 characters instead of 20) before the service
 * starts, and REST, the OpenAPI document and the agent tools all enforce and publish the
 * changed limit, with nothing else touched.
 */
const DTO_MODULE = '../../../src/interface/shared/requests/topup.dto';
const CHANGED_MAX = 12;

jest.doMock(DTO_MODULE, () => {
  const actual = jest.requireActual(DTO_MODULE);
  const { ApiSchema } = jest.requireActual('@nestjs/swagger');
  const { TextField } = jest.requireActual('../../../src/interface/shared/requests/request-fields');
  // The same field declaration as in topup.dto.ts, with another maximum.
  class TopupDto extends actual.TopupDto {}
  TextField({ minLength: 1, maxLength: CHANGED_MAX }, { description: 'Recipient mobile number' })(
    TopupDto.prototype,
    'phone',
  );
  ApiSchema({ name: 'TopupRequest', description: 'A mobile prepaid recharge.' })(TopupDto);
  return { ...actual, TopupDto };
});

describe('one definition per request: a limit changed in the DTO', () => {
  let service: TestService;
  let key: string;
  let mcp: Client;
  const tooLong = '+919876540001'; // 13 characters, accepted by the DTO as shipped
  const refusal = { error: 'validation_failed', detail: `phone: must be at most ${CHANGED_MAX} characters` };

  beforeAll(async () => {
    // Loaded after the mock, like every module of the service.
    const { TestService: Service } =
      jest.requireActual<typeof import('../../support/test-service')>('../../support/test-service');
    service = await Service.start({ store: 'postgres' });
    ({ sandboxKey: key } = await service.createPartner('IN'));
    mcp = new Client({ name: 'one-definition-spec', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await mcp.connect(transport);
  });
  afterAll(async () => {
    await mcp?.close();
    await service?.close();
  });

  it('REST enforces it', async () => {
    const refused = await service.topup(key, { operator_id: 101, phone: tooLong, amount: 100 }, 'one-def-rest-1');
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: refusal });
    const accepted = await service.topup(key, { operator_id: 101, phone: '9876540001', amount: 100 }, 'one-def-rest-2');
    expect(accepted.status).toBe(200);
  });

  it('the OpenAPI document publishes it', async () => {
    const served = await service.request('GET', '/v1/partner/openapi.json');
    expect(served.body.components.schemas.TopupRequest.properties.phone).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: CHANGED_MAX,
    });
  });

  it('the agent tool publishes and enforces it, with the same refusal', async () => {
    const { tools } = await mcp.listTools();
    const topup = tools.find((tool) => tool.name === 'service_topup')!;
    expect(topup.inputSchema.properties?.phone).toMatchObject({ type: 'string', minLength: 1, maxLength: CHANGED_MAX });
    const refused = await mcp.callTool({
      name: 'service_topup',
      arguments: { operator_id: 101, phone: tooLong, amount: 100, idempotency_key: 'one-def-mcp-1' },
    });
    expect(refused).toMatchObject({ isError: true, structuredContent: refusal });
    const accepted = await mcp.callTool({
      name: 'service_topup',
      arguments: { operator_id: 101, phone: '9876540001', amount: 100, idempotency_key: 'one-def-mcp-2' },
    });
    expect(accepted.isError).toBeFalsy();
  });

  it('moved money only for the accepted calls', async () => {
    expect((await service.partner('GET', '/balance', key)).body.available).toBe('800.00');
  });
});
