/** A text from upstream as it may be shown in an error: quoted (control characters escaped), at most 64 characters of it. */
export const quotedUpstreamText = (text: string): string =>
  JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);

const upstreamIdText = (id: string): string => (/^[\w.:-]{1,64}$/.test(id) ? id : quotedUpstreamText(id));

export const reportEntryName = (kind: string, transactionId: string, ours: string | null): string =>
  `${kind} ${upstreamIdText(transactionId)}${ours === null ? '' : ` (${upstreamIdText(ours)})`}`;
