/** The actor recorded for the break-glass owner token (ADMIN_TOKEN); no operator can be given this name. */
export const BREAK_GLASS_NAME = 'break-glass';

/** Names that would read as something else in an audit: the break-glass owner, the token of earlier releases, the service. */
const RESERVED_NAMES: ReadonlySet<string> = new Set([BREAK_GLASS_NAME, 'admin-token', 'system']);

/** An operator id (`opr_…`): names never look like one, so `operator revoke` takes either. */
export const OPERATOR_ID_PREFIX = 'opr_';

const NAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

/** Why a name cannot be an operator's, or null when it can. */
export function operatorNameProblem(name: string): string | null {
  if (!NAME_PATTERN.test(name))
    return 'name: 1 to 64 lower-case letters, digits and . _ @ -, starting with a letter or digit';
  if (RESERVED_NAMES.has(name)) return `name: ${name} is reserved`;
  if (name.startsWith(OPERATOR_ID_PREFIX)) return `name: must not start with ${OPERATOR_ID_PREFIX}`;
  return null;
}
