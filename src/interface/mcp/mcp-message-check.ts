import * as z from 'zod/v4';
import { CallToolRequestSchema, InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** What to answer instead of handing a message to the SDK: a JSON-RPC error. */
export type EarlyAnswer = { id: string | number; error: { code: number; message: string } };

const INVALID_PARAMS = -32602;

/** Requests whose parameters the SDK would reject with an Internal error and a dump of its validator's report. */
const REQUEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  initialize: InitializeRequestSchema,
  'tools/call': CallToolRequestSchema,
};

// Checks one JSON-RPC request before the SDK, so a malformed one gets -32602 with a short reason (decision 0005);
// tool arguments are the tool's to check, as REST requests. Null means the SDK answers.
export function earlyAnswer(message: unknown): EarlyAnswer | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const { id, method } = message as { id?: unknown; method?: unknown };
  // Notifications get no answer, and messages without a usable id are the SDK's to refuse.
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string') return null;
  const schema = Object.hasOwn(REQUEST_SCHEMAS, method) ? REQUEST_SCHEMAS[method] : undefined;
  if (!schema) return null;
  const request = schema.safeParse(message);
  return request.success
    ? null
    : { id, error: { code: INVALID_PARAMS, message: `Invalid params: ${firstIssue(request.error)}` } };
}

/** The first problem as "<field>: <reason>", the form every refusal of the service takes. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  return `${path || 'params'}: ${issue.message}`;
}
