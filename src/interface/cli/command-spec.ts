import { ValueKind } from './option-kinds';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One call to the admin API; path is relative to `${SERVICE_URL}/v1/admin`. */
export interface AdminRequest {
  method: HttpMethod;
  path: string;
  body?: Record<string, string | number | boolean | string[] | null>;
  headers?: Record<string, string>;
}

export type OptionSpec = { type: 'string'; kind: ValueKind; required: boolean } | { type: 'flag' };

/** Positionals and options after validation, looked up by name. */
export interface CommandArgs {
  /** A positional or required option; the parser has already ensured it is present. */
  value(name: string): string;
  optional(name: string): string | undefined;
  flag(name: string): boolean;
}

/** `json` (default): one JSON line; `stream`: the body as it arrives; `follow-rebuild`: follows the rebuild. */
export type OutputMode = 'json' | 'stream' | 'follow-rebuild';

export interface CommandSpec {
  /** Synopsis after the command name, e.g. `<partner_id> --status <approved|suspended>`. */
  usage: string;
  summary: string;
  positionals: readonly { name: string; kind: ValueKind }[];
  options: Readonly<Record<string, OptionSpec>>;
  build(args: CommandArgs): AdminRequest;
  output?: OutputMode;
  /** Long work on the service's side: its elapsed time is shown on stderr until the answer starts. */
  longRunning?: boolean;
}
