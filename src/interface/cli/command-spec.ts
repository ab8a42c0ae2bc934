import { ValueKind } from './option-kinds';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface AdminRequest {
  method: HttpMethod;
  path: string;
  body?: Record<string, string | number | boolean | string[] | null>;
  headers?: Record<string, string>;
}

export type OptionSpec = { type: 'string'; kind: ValueKind; required: boolean } | { type: 'flag' };

export interface CommandArgs {
  value(name: string): string;
  optional(name: string): string | undefined;
  flag(name: string): boolean;
}

/** `json` (default): one JSON line; `stream`: the body as it arrives; `follow-rebuild`: follows the rebuild. */
export type OutputMode = 'json' | 'stream' | 'follow-rebuild';

export interface CommandSpec {
  usage: string;
  summary: string;
  positionals: readonly { name: string; kind: ValueKind }[];
  options: Readonly<Record<string, OptionSpec>>;
  build(args: CommandArgs): AdminRequest;
  output?: OutputMode;
  /** Long work on the service's side: its elapsed time is shown on stderr until the answer starts. */
  longRunning?: boolean;
}
