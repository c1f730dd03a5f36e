import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

/**
 * A forward proxy on loopback that records what it is asked: a tunnel (CONNECT host:port, what
 * undici asks of a proxy) which it opens to the real server, or a plain request in absolute form.
 */
describe('proxies from the environment', () => {
  const seen: string[] = [];
  const proxy = createServer((req: IncomingMessage, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json', 'x-total': '0', 'x-total-pages': '0' });
    res.end('[]');
  });
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`${req.method} ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const api = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  let proxyUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    proxy.close();
    api.close();
  });

  it('sends requests through HTTP_PROXY', async () => {
    seen.length = 0;
    const result = await runMain(['groups', 'list', '--json'], { env: { MON_BASE_URL: apiUrl, MON_API_KEY: 'k_proxy_test_123456', HTTP_PROXY: proxyUrl } });
    expect(result).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(`CONNECT ${apiUrl.replace('http://', '')}`);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    seen.length = 0;
    const result = await runMain(['groups', 'list', '--json'], { env: { MON_BASE_URL: apiUrl, MON_API_KEY: 'k_proxy_test_123456', HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    expect(result).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(seen).toHaveLength(0);
  });
});
