const LEVELS: Readonly<Record<number, { name: string; colour: string }>> = {
  10: { name: 'TRACE', colour: '90' },
  20: { name: 'DEBUG', colour: '36' },
  30: { name: 'INFO ', colour: '32' },
  40: { name: 'WARN ', colour: '33' },
  50: { name: 'ERROR', colour: '31' },
  60: { name: 'FATAL', colour: '41;97' },
};

const SHOWN_OR_CONSTANT = new Set(['level', 'time', 'msg', 'context', 'service', 'pid', 'hostname']);

/** A JSON log line for a terminal (`12:04:05.120 INFO  [Context] message key=value`); other lines pass as they are. */
export function readableLogLine(json: string, colour: boolean): string {
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return json;
  const fields = entry as Record<string, unknown>;
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const level = LEVELS[Number(fields.level)] ?? { name: String(fields.level).padEnd(5), colour: '0' };
  const time = typeof fields.time === 'number' ? new Date(fields.time).toISOString().slice(11, 23) : '';
  const context = typeof fields.context === 'string' ? `${paint('33', `[${fields.context}]`)} ` : '';
  const message = typeof fields.msg === 'string' ? fields.msg : '';
  const extras = Object.entries(fields)
    .filter(([key, value]) => !SHOWN_OR_CONSTANT.has(key) && value !== undefined && key !== 'trace')
    .map(([key, value]) => paint('90', `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`));
  const trace = typeof fields.trace === 'string' ? `\n${paint('90', fields.trace)}` : '';
  return `${paint('90', time)} ${paint(level.colour, level.name)} ${context}${message}${extras.length ? ` ${extras.join(' ')}` : ''}${trace}`;
}
