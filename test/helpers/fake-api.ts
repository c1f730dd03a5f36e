import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export type Handler = (request: ReceivedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface FakeApi {
  url: string;
  requests: ReceivedRequest[];
  /** Replaces the behaviour for the requests still to come. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Sends JSON with the status and headers given. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** The API's error body (api-v2.5, Errors). */
export function apiError(response: ServerResponse, status: number, title: string, details = '', headers: Record<string, string> = {}): void {
  json(response, status, [{ status_code: status, code: `:${title.toLowerCase().replace(/\W+/g, '_')}`, title, details }], headers);
}

/**
 * A small HTTP server on loopback whose answers each test scripts: for faults the sandbox does
 * not make (resets, hangs, HTML pages, redirects). Records every request it receives.
 */
export async function startFakeApi(handler: Handler): Promise<FakeApi> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
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
      await current(received, res, requests.length - 1);
    } catch (error) {
      res.destroy(error as Error);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
