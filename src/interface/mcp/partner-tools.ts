import { Injectable, Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ListToolsRequestSchema,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Caller } from '../../application/auth/caller';
import { ListBillers } from '../../application/catalog/list-billers';
import { ListCarriers } from '../../application/catalog/list-carriers';
import { billerResource, operatorResource } from '../shared/catalog-resources';
import { FetchBill } from '../../application/orders/fetch-bill';
import { billInfoResource } from '../shared/bill-resources';
import { billToFetch, payBill, placeTopup } from '../shared/requests/order-commands';
import { balanceResource } from '../shared/balance-resources';
import { GetTransaction } from '../../application/orders/get-transaction';
import { readOrderAnswer, transactionStatusResource } from '../shared/order-resources';
import { PlacementAnswer } from '../../application/orders/order-placement';
import { ServiceError } from '../../application/shared/service-error';
import { GetBalance } from '../../application/wallets/get-balance';
import {
  balanceSummary,
  billSummary,
  CatalogToolResource,
  catalogSummary,
  orderSummary,
  PlacedOrderToolResource,
  toolError,
  toolSuccess,
  transactionSummary,
} from './tool-results';
import { RequestSubject, validatedRequest } from '../shared/requests/validated-request';
import { BILLER_CATEGORIES } from '../../application/ports/catalog.port';
import {
  BillInfoToolInput,
  GetTransactionToolInput,
  isToolName,
  ListOperatorsToolInput,
  PayBillToolInput,
  TOOL_INPUTS,
  ToolName,
  toolSchemaOf,
  TopupToolInput,
} from './tool-schemas';

const MCP_SERVER_NAME = 'partner-recharge-service';
const MCP_SERVER_VERSION = '1.0.0';

const INSTRUCTIONS = [
  'Tools of a prepaid wallet for mobile recharge (topup) and bill payment. Your API key fixes the corridor (IN, BD or SG), its currency (INR, BDT, SGD) and the environment (svc_test_ keys: sandbox, no real money; svc_live_ keys: real money).',
  'Before a topup: service_list_operators (pass phone to detect the operator) for operator_id and the allowed amount range. Before a bill payment: service_get_bill_info for the amount, then service_pay_bill with that amount.',
  'service_topup and service_pay_bill debit the wallet at once and answer PENDING; follow up with service_get_transaction. Give each new payment a new idempotency_key; retry a payment only with the same key and arguments.',
  'With a restricted API key: a read-only key gets scope_forbidden from the paying tools; a transact key gets key_cap_exceeded above its per-order or 24-hour maximum. Pass validate_only: true to check a payment without making it.',
  'Refusals come back as tool results with isError: true and structuredContent {error, detail}, where error is a code such as insufficient_balance, amount_out_of_range or validation_failed.',
].join('\n');

const TOOL_ARGUMENTS: RequestSubject = { root: 'arguments', noun: 'tool' };

type ToolArgs<T extends ToolName> = InstanceType<(typeof TOOL_INPUTS)[T]>;
type ToolConfig = Pick<Tool, 'title' | 'description' | 'annotations'>;
interface PartnerTool {
  config: ToolConfig;
  handle(args: object): Promise<CallToolResult>;
}

let publishedSchemas: ReadonlyMap<ToolName, Tool['inputSchema']> | null = null;
/** Derived once from the input classes (their decorators are fixed at load). */
function publishedSchema(name: ToolName): Tool['inputSchema'] {
  publishedSchemas ??= new Map(
    Object.keys(TOOL_INPUTS)
      .filter(isToolName)
      .map((tool) => [tool, toolSchemaOf(tool) as Tool['inputSchema']]),
  );
  const schema = publishedSchemas.get(name);
  if (!schema) throw new Error(`no input schema for ${name}`);
  return schema;
}

// The partner operations as MCP tools, each a thin adapter over the application command or query REST uses,
// so money rules and idempotency are REST's by construction. A server is built per request for one caller.
@Injectable()
export class PartnerToolServerFactory {
  private readonly logger = new Logger('McpTools');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  // The SDK marks its low-level Server deprecated in favour of McpServer, whose tools take zod shapes only; the tools
  // here publish the DTOs' JSON Schemas as they are, which only the low-level Server does.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  create(caller: Caller): Server {
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    const server = new Server(
      { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    const tools = new Map<ToolName, PartnerTool>();
    const registerTool = <T extends ToolName>(
      name: T,
      config: ToolConfig,
      handle: (args: ToolArgs<T>) => Promise<CallToolResult>,
    ): void => {
      tools.set(name, { config, handle: (args) => handle(args as ToolArgs<T>) });
    };

    registerTool(
      'service_get_balance',
      {
        title: 'Wallet balance',
        description:
          'Returns the prepaid wallet balance of your API key: available (decimal string), currency, corridor, environment (live or sandbox) and updated_at. Read-only; moves no money. Takes no arguments.',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async () => {
        const balance = balanceResource(caller, await this.queries.execute(new GetBalance(caller)));
        return toolSuccess(balance, balanceSummary(balance));
      },
    );

    registerTool(
      'service_list_operators',
      {
        title: 'List operators and billers',
        description:
          'Lists what you can pay in your corridor: mobile prepaid operators (id = operator_id for service_topup, with min_amount and max_amount) and billers for postpaid mobile, utility and BBPS bills ' +
          '(id = biller_id for service_get_bill_info and service_pay_bill, with the extra params each biller requires). ' +
          'Filter by kind, category and name, or pass phone to detect the operator of a mobile number. ' +
          'Returns {corridor, currency, count, operators, billers} (plus phone, in E.164, when detecting). Read-only.',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args) => this.listCatalog(caller, args),
    );

    registerTool(
      'service_topup',
      {
        title: 'Mobile prepaid topup',
        description:
          'Recharges a mobile prepaid number from your wallet. MOVES MONEY: the wallet is debited at once and the answer is the order with status PENDING ' +
          '(order_id, operator_id, phone, amount_local, currency, balance_after, reference, created_at, and replayed). The final outcome comes later: ' +
          'SUCCESS, or FAILED with an automatic refund; check it with service_get_transaction. ' +
          'Get operator_id and the allowed amount range from service_list_operators first. ' +
          'idempotency_key is required: a new unique key for each new topup; a retry with the same key and arguments returns the first result (replayed: true) and never debits twice. ' +
          'Refusals: validation_failed, operator_not_found_or_wrong_corridor, amount_out_of_range, insufficient_balance, idempotency_conflict. ' +
          'Sandbox: the last 4 digits of the phone decide the outcome (0001 success, 0002 failure with refund, 0003 success after 30 s, 0004 failure after 30 s, 0005 stays PENDING).',
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      },
      (args) => this.topup(caller, args),
    );

    registerTool(
      'service_get_bill_info',
      {
        title: 'Fetch a bill',
        description:
          'Step 1 of a bill payment: asks the biller for the outstanding bill of a consumer and returns biller_name, customer_name, amount (decimal string), currency, due_date, bill_period and bill_reference. ' +
          'Moves no money. Pass the returned amount to service_pay_bill (step 2), which needs this fetch (valid 24 hours by default). ' +
          'Refusals: operator_not_found_or_wrong_corridor (unknown biller), validation_failed (consumer_number or params), not_found (no bill on record). ' +
          'Sandbox: the consumer_number suffix decides the bill (0001: 500.00, 0002: 1500.00, 0003: 850.50, 0004: 2400.00 overdue, 0099: 0.00).',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      },
      (args) => this.billInfo(caller, args),
    );

    registerTool(
      'service_pay_bill',
      {
        title: 'Pay a bill',
        description:
          'Step 2 of a bill payment (postpaid mobile, utility or BBPS bill): pays the bill from your wallet. This tool does NOT fetch the bill: call service_get_bill_info first with the same biller_id, consumer_number and params, ' +
          'then pass the amount it returned; it must match the fetched bill within 1 unit of the currency. MOVES MONEY: the wallet is debited at once and the answer is the order with status PENDING ' +
          '(order_id, biller_id, consumer_number, amount_local, currency, balance_after, reference, created_at, and replayed); check the outcome with service_get_transaction. ' +
          'idempotency_key is required: a new unique key for each new payment; a retry with the same key and arguments returns the first result (replayed: true) and never debits twice. ' +
          'Refusals: validation_failed (also when no current bill was fetched), operator_not_found_or_wrong_corridor, amount_out_of_range (amount differs from the bill, or nothing is due), insufficient_balance, idempotency_conflict.',
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      },
      (args) => this.payBill(caller, args),
    );

    registerTool(
      'service_get_transaction',
      {
        title: 'Transaction status',
        description:
          'Returns the current status of one of your orders (the authoritative source): status PENDING, SUCCESS or FAILED, amount_local, currency, operator_ref and settled_at (on success), ' +
          'refunded_at (on failure, when the wallet was refunded), reference, the target (phone and operator_id, or consumer_number and biller_id) and created_at. ' +
          'PENDING orders stay debited and are never refunded automatically unless they fail. Read-only. Refusal: not_found (unknown order_id or not yours).',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args) => this.transaction(caller, args),
    );

    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...tools].map(([name, { config }]) => ({ name, ...config, inputSchema: publishedSchema(name) })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      const tool = isToolName(name) ? tools.get(name) : undefined;
      if (!isToolName(name) || !tool) {
        return { isError: true, content: [{ type: 'text', text: `MCP error -32602: Tool ${name} not found` }] };
      }
      // The REST validation, through the tool's input class: limits, types, unknown fields and text safety alike.
      return this.run(caller, name, () => tool.handle(validatedRequest(TOOL_INPUTS[name], args ?? {}, TOOL_ARGUMENTS)));
    });
    return server;
  }

  private async listCatalog(caller: Caller, args: ListOperatorsToolInput): Promise<CallToolResult> {
    if (args.phone !== undefined && args.kind === 'biller') {
      throw new ServiceError(
        'validation_failed',
        'phone: detects prepaid operators; use it with kind "operator" or "all"',
      );
    }
    const wantsOperators =
      args.kind !== 'biller' && (args.category === undefined || args.category === 'MOBILE_PREPAID');
    const billerCategory = BILLER_CATEGORIES.find((category) => category === args.category);
    const wantsBillers =
      args.kind !== 'operator' &&
      args.phone === undefined &&
      (args.category === undefined || billerCategory !== undefined);
    const named = (name: string, code: string): boolean => {
      if (args.name === undefined) return true;
      const needle = args.name.toLowerCase();
      return name.toLowerCase().includes(needle) || code.toLowerCase().includes(needle);
    };

    // The REST queries, so the lists are the same entries REST shows.
    const operatorList = wantsOperators ? await this.queries.execute(new ListCarriers(caller, args.phone)) : null;
    const billerList = wantsBillers ? await this.queries.execute(new ListBillers(caller, billerCategory)) : null;
    const operators = (operatorList?.operators ?? []).filter((entry) => named(entry.name, entry.apiOperatorId));
    const billers = (billerList ?? []).filter((biller) => named(biller.name, biller.apiBillerId));
    const catalog: CatalogToolResource = {
      corridor: caller.corridor,
      currency: caller.currency,
      count: operators.length + billers.length,
      ...(operatorList && operatorList.phone !== undefined ? { phone: operatorList.phone } : {}),
      operators: operators.map(operatorResource),
      billers: billers.map(billerResource),
    };
    return toolSuccess(catalog, catalogSummary(catalog));
  }

  private async topup(caller: Caller, args: TopupToolInput): Promise<CallToolResult> {
    const { idempotency_key: key, ...body } = args;
    return this.placed(await this.commands.execute(placeTopup(caller, key, body)));
  }

  private async billInfo(caller: Caller, args: BillInfoToolInput): Promise<CallToolResult> {
    const bill = billInfoResource(
      await this.commands.execute(new FetchBill(caller, billToFetch(args))),
      'service_pay_bill',
    );
    return toolSuccess(bill, billSummary(bill));
  }

  private async payBill(caller: Caller, args: PayBillToolInput): Promise<CallToolResult> {
    const { idempotency_key: key, ...body } = args;
    try {
      return this.placed(await this.commands.execute(payBill(caller, key, body)));
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'validation_failed' && error.detail?.includes('/bill-info')) {
        return toolError(
          error.code,
          error.detail,
          'Call service_get_bill_info with this biller_id and consumer_number first, then pay the amount it returns.',
        );
      }
      throw error;
    }
  }

  private async transaction(caller: Caller, args: GetTransactionToolInput): Promise<CallToolResult> {
    const status = transactionStatusResource(await this.queries.execute(new GetTransaction(caller, args.order_id)));
    return toolSuccess(status, transactionSummary(status));
  }

  /** The Order exactly as REST sends it (a replay is the stored first answer), plus whether it is a replay. */
  private placed(placed: PlacementAnswer): CallToolResult {
    const answer = readOrderAnswer(placed.body);
    if ('validate_only' in answer)
      return toolSuccess(
        answer,
        'Dry run passed every check: nothing was debited and the idempotency_key is still unused.',
      );
    const order: PlacedOrderToolResource = { ...answer, replayed: placed.replayed };
    return toolSuccess(order, orderSummary(order, placed.replayed));
  }

  /** Refusals of the service become tool results with its error code; anything else is logged and answered internal_error. */
  private async run(caller: Caller, tool: string, action: () => Promise<CallToolResult>): Promise<CallToolResult> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof ServiceError) return toolError(error.code, error.detail);
      this.logger.error(
        `${tool} [${caller.requestId}] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return toolError(
        'internal_error',
        `an internal error occurred (request ${caller.requestId}); it is safe to retry with the same idempotency_key`,
      );
    }
  }
}
