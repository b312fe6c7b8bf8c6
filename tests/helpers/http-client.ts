import { COMPLETE_PROFILE } from './actors.ts';

/** A browser-like client of a real server: keeps its session cookie, sends Origin on writes, and any fixed headers (X-Forwarded-For). */
export class Client {
  cookie = '';
  constructor(
    public server: { url: string },
    public headers: Record<string, string> = {},
  ) {}

  async request(method: string, path: string, json?: unknown, extra: Record<string, string> = {}): Promise<Response> {
    const headers: Record<string, string> = { origin: this.server.url, ...this.headers, ...extra };
    if (this.cookie) headers.cookie = this.cookie;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.server.url}${path}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
      redirect: 'manual',
    });
    const set = response.headers.getSetCookie().find((line) => line.startsWith('csa_session='));
    if (set) this.cookie = set.split(';')[0]!;
    return response;
  }

  async ok(method: string, path: string, json?: unknown): Promise<any> {
    const response = await this.request(method, path, json);
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }
}

/** A shopper registered on a real server with a complete profile and a card on file, ready to buy. */
export async function shopperWithCard(server: { url: string }, username: string): Promise<Client> {
  const client = new Client(server);
  await client.ok('POST', '/api/register', { username, password: 'secret-pass' });
  await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  return client;
}
