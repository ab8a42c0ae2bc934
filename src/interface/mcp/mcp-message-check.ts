import * as z from 'zod/v4';
import { CallToolRequestSchema, CallToolResult, InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { toolError } from './tool-results';
import { TOOL_INPUTS } from './tool-schemas';

/** What to answer instead of handing a message to the SDK: a JSON-RPC error, or a tool result. */
export type EarlyAnswer = { id: string | number; error: { code: number; message: string } } | { id: string | number; result: CallToolResult };

const INVALID_PARAMS = -32602;

/** Requests whose parameters the SDK would reject with an Internal error and a dump of its validator's report. */
const REQUEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  initialize: InitializeRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/**
 * Checks one JSON-RPC request before the SDK sees it, so that a malformed one gets
 * -32602 Invalid params with a short reason, and a tool call whose arguments break the
 * tool's schema gets the service's own refusal (isError with structuredContent
 * {error: validation_failed, detail}), as the server's instructions promise agents.
 * Null means the SDK answers.
 */
export function earlyAnswer(message: unknown): EarlyAnswer | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const { id, method } = message as { id?: unknown; method?: unknown };
  // Notifications get no answer, and messages without a usable id are the SDK's to refuse.
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string') return null;
  const schema = Object.hasOwn(REQUEST_SCHEMAS, method) ? REQUEST_SCHEMAS[method] : undefined;
  if (!schema) return null;
  const request = schema.safeParse(message);
  if (!request.success) return { id, error: { code: INVALID_PARAMS, message: `Invalid params: ${firstIssue(request.error, '')}` } };
  if (method !== 'tools/call') return null;
  const { name, arguments: args } = (message as { params: { name: string; arguments?: unknown } }).params;
  const input = Object.hasOwn(TOOL_INPUTS, name) ? TOOL_INPUTS[name] : undefined;
  if (!input) return null;
  const checked = input.safeParse(args ?? {});
  return checked.success ? null : { id, result: toolError('validation_failed', firstIssue(checked.error, 'arguments')) };
}

/** The first problem as "<field>: <reason>", the form every refusal of the service takes. */
function firstIssue(error: z.ZodError, root: string): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') return `${[path, issue.keys[0]].filter(Boolean).join('.')}: is not a field of this tool`;
  return `${path || root || 'params'}: ${issue.message}`;
}
