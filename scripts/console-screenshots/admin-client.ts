/** The few HTTP calls the screenshot script makes to seed a service: the back office with an owner's token, the partner API with a key. */
export class DemoClient {
  constructor(
    readonly url: string,
    private readonly adminToken: string,
  ) {}

  async admin(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
    return this.send(method, `/v1/admin${path}`, this.adminToken, body, headers);
  }

  async partner(
    method: string,
    path: string,
    key: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<any> {
    return this.send(method, `/v1/partner${path}`, key, body, headers);
  }

  private async send(
    method: string,
    path: string,
    token: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<any> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  }
}
