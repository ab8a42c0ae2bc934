/** The headers the portal and the console are served with: their own files only, this service only, never framed or stored. */
export const PAGE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Fetches each file of a page and expects it served 200 with its content type and PAGE_SECURITY_HEADERS. */
export async function expectServedWithPageHeaders(
  serviceUrl: string,
  files: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [path, type] of files) {
    const answer = await fetch(`${serviceUrl}${path}`);
    const headers = Object.fromEntries(
      ['content-type', ...Object.keys(PAGE_SECURITY_HEADERS)].map((name) => [name, answer.headers.get(name)]),
    );
    expect({ path, status: answer.status, headers }).toEqual({
      path,
      status: 200,
      headers: { 'content-type': type, ...PAGE_SECURITY_HEADERS },
    });
  }
}
