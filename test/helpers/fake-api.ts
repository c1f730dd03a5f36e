import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

/**
 * Answers one request. A handler that does not expect the request returns UNEXPECTED: the fake
 * answers 500, and its close() fails the test naming each such request.
 */
export type Handler = (
  request: ReceivedRequest,
  response: ServerResponse,
  index: number,
) => void | typeof UNEXPECTED | Promise<void | typeof UNEXPECTED>;

/** What a handler returns for a request its test did not expect. */
export const UNEXPECTED = Symbol('unexpected request');

export interface FakeApi {
  url: string;
  requests: ReceivedRequest[];
  /** When each request arrived (Date.now()), in the order of `requests`. */
  arrivals: number[];
  /** Replaces the behaviour for the requests still to come. */
  handle(handler: Handler): void;
  /** Stops the server; rejects when a request came that the handlers did not expect. */
  close(): Promise<void>;
}

/** Sends JSON with the status and headers given. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** The API's error body (api-v2.5, Errors). */
export function apiError(
  response: ServerResponse,
  status: number,
  title: string,
  details = '',
  headers: Record<string, string> = {},
): void {
  json(
    response,
    status,
    [{ status_code: status, code: `:${title.toLowerCase().replace(/\W+/g, '_')}`, title, details }],
    headers,
  );
}

/**
 * A small HTTP server on loopback whose answers each test scripts: for faults the sandbox does
 * not make (resets, hangs, HTML pages, redirects). Records every request it receives.
 */
export async function startFakeApi(
  handler: Handler,
  options: { tls?: { key: string; cert: string } } = {},
): Promise<FakeApi> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const arrivals: number[] = [];
  const unexpected: string[] = [];
  const sockets = new Set<Socket>();
  const listener: RequestListener = async (req, res) => {
    arrivals.push(Date.now());
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      headers: req.headers,
    };
    requests.push(received);
    try {
      if ((await current(received, res, requests.length - 1)) === UNEXPECTED) {
        unexpected.push(`${received.method} ${received.path}`);
        apiError(
          res,
          500,
          'Unexpected request',
          `the fake API of this test does not answer ${received.method} ${received.path}`,
        );
      }
    } catch (error) {
      res.destroy(error as Error);
    }
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  // Errors of clients that hang up (a refused certificate, a reset) are part of the tests.
  server.on('tlsClientError', () => undefined);
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    arrivals,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections?.();
        for (const socket of sockets) socket.destroy();
        server.close(() =>
          unexpected.length > 0
            ? reject(new Error(`the fake API received requests its test did not expect: ${unexpected.join(', ')}`))
            : resolve(),
        );
      }),
  };
}

/** A page of `total` computers that honours page/per_page and sends the x- headers; GET /v2.5/computers only. */
export function computersPage(total: number): Handler {
  return (req, res) => {
    if (req.method !== 'GET' || req.path !== '/v2.5/computers') return UNEXPECTED;
    const page = Number(req.query.get('page') ?? 1);
    const perPage = Number(req.query.get('per_page') ?? 50);
    const pages = Math.ceil(total / perPage);
    const items = Array.from({ length: total }, (_, i) => ({
      uid: `c_${i + 1}`,
      client_id: `client-${i + 1}`,
      computer_name: `host-${i + 1}`,
      platform: 'linux',
    })).slice((page - 1) * perPage, page * perPage);
    json(res, 200, items, {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(total),
      'x-total-pages': String(pages),
    });
  };
}

/** Answers each request by its index: `script[i]` for the i-th request, the last entry after. */
export function scripted(...script: Handler[]): Handler {
  return (req, res, index) => script[Math.min(index, script.length - 1)]!(req, res, index);
}

/** Tears the connection down without an answer (a reset as the client sees it). */
export const reset: Handler = (_req, res) => {
  res.socket?.resetAndDestroy?.() ?? res.socket?.destroy();
};

/** Never answers: the client must give up by itself. */
export const hang: Handler = () => undefined;
