/** Text that may reach a use case: REST bodies, query values and agent-tool arguments alike. */

/** C0 controls, DEL and C1 controls (Unicode category Cc). Printable Unicode, format marks included, is accepted. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
/** A surrogate half without its partner: not text, and PostgreSQL's jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string): string | null {
  if (CONTROL_CHARACTER.test(text)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode text';
  return null;
}

/** Deeper than any request of this interface nests; walking (and mapping) deeper input would only exhaust the stack. */
const MAX_DEPTH = 16;

// The first string (value or key) that is not safe text, or key naming a built-in property of every object
// (`constructor`, …: no request has one, and the body mapper would trip over it), as "<field>: <problem>".
export function findUnsafeText(value: unknown, path: string, root: string, depth = 0): string | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? `${path || root}: ${problem}` : null;
  }
  if (value !== null && typeof value === 'object') {
    // Named by the request's own field, not by a path of thousands of indexes.
    if (depth >= MAX_DEPTH) return `${path.split('.')[0] || root}: nested too deeply`;
    for (const [key, child] of Object.entries(value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return `${path || root}: field names ${keyProblem}`;
      const childPath = path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && key in Object.prototype) return `${childPath}: is not a field of this request`;
      const found = findUnsafeText(child, childPath, root, depth + 1);
      if (found) return found;
    }
  }
  return null;
}
