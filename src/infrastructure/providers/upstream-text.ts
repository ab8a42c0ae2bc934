/** A text from upstream as it may be shown in an error: quoted (control characters escaped), at most 64 characters of it. */
export const quotedUpstreamText = (text: string): string =>
  JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);

/** An upstream identifier as it may be shown: as it is when plain, quoted otherwise. */
const upstreamIdText = (id: string): string => (/^[\w.:-]{1,64}$/.test(id) ? id : quotedUpstreamText(id));

/** One transaction of a report, named for an error: its kind, the provider's id and the identifier we sent. */
export const reportEntryName = (kind: string, transactionId: string, ours: string | null): string =>
  `${kind} ${upstreamIdText(transactionId)}${ours === null ? '' : ` (${upstreamIdText(ours)})`}`;
