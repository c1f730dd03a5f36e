/**
 * The one small layer under the servers mon runs (`events listen`, `metrics serve`): node:http
 * or node:https on an address checked by address.ts, with the limits every one of them needs.
 * A request whose body is over the limit gets 413, a method not allowed 405, a sender too slow
 * with its headers or body 408, a handler that throws 500; none of them stops the server.
 * Closing stops accepting and lets the requests in flight finish.
 */
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { InterruptedError, UsageError } from '../errors.js';
import type { ListenAddress } from './address.js';
import type { TlsFiles } from './tls.js';

/** One request, read whole: what a handler sees. */
export interface ServerRequest {
  method: string;
  /** The path and query as sent (`/events/abc?x=1`). */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The sender's address, for log lines. */
  remote: string;
}

/** What a handler answers. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export const DEFAULT_LIMITS = {
  /** 1 MiB. */
  maxBodyBytes: 1024 * 1024,
  /** A sender has this long to send its headers (from the connection or the previous request). */
  headersTimeoutMs: 10_000,
  /** ...and this long for the whole request, body included. */
  requestTimeoutMs: 30_000,
  /** A kept-alive connection with no request is closed after this. */
  idleTimeoutMs: 5_000,
} as const;

export interface ServeOptions {
  address: ListenAddress;
  /** Serve HTTPS with these (tls.ts); plain HTTP without. */
  tls?: TlsFiles;
  /** The methods the handler takes; any other gets 405 with `Allow`. Default POST. */
  methods?: readonly string[];
  maxBodyBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** Answers a request read whole. A throw is answered 500 (and given to `onError`). */
  handle(request: ServerRequest): Promise<Reply> | Reply;
  /** One access line per request answered (`POST /path 200 3ms`): the caller shows it with -v. */
  log?(line: string): void;
  /** A handler that threw; the sender got 500. */
  onError?(error: unknown): void;
  /**
   * Context.life.letFinish: held while a request is in flight, so that a first Ctrl-C or SIGTERM
   * lets it finish (its `inFlight` signal, aborted by a second one, cuts them off).
   */
  letFinish?(): { inFlight: AbortSignal; release(): void };
  /** Once listening, `Listening on URL` goes here, URL being the origin and `shownPath`. */
  announce?: { stderr: { write(text: string): unknown }; shownPath?: string };
}

/** A server that is listening. */
export interface Server {
  /** `http://127.0.0.1:8787`: the origin, with the port the system gave for port 0. */
  readonly url: string;
  readonly port: number;
  /** Requests being read or answered. */
  inFlight(): number;
  /** Refused before the handler by status (405, 408, 413, 400): how many. */
  readonly refused: Readonly<Record<number, number>>;
  /** Stops accepting, lets the requests in flight finish, closes every connection. Idempotent. */
  close(): Promise<void>;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** The limits of the options, as node:http takes them. */
function serverLimits(options: ServeOptions) {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_LIMITS.headersTimeoutMs, requestTimeout);
  return {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: options.idleTimeoutMs ?? DEFAULT_LIMITS.idleTimeoutMs,
    // Node checks the two timeouts above every this often (30 s by default): a tenth of the shorter.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 10))),
  };
}

/**
 * The requests in flight and the ones refused: held (Context.life.letFinish) while any is in
 * flight, drained on close; every answer goes through here so a closing server says so.
 */
class Requests {
  readonly refused: Record<number, number> = {};
  active = 0;
  closing = false;
  private hold: { inFlight: AbortSignal; release(): void } | undefined;
  private readonly drained: (() => void)[] = [];

  constructor(private readonly letFinish: ServeOptions['letFinish']) {}

  begin(): void {
    if (this.active++ === 0 && this.letFinish) this.hold = this.letFinish();
  }

  end(): void {
    if (--this.active > 0) return;
    this.hold?.release();
    this.hold = undefined;
    for (const resolve of this.drained.splice(0)) resolve();
  }

  /** Resolves when no request is in flight, or when a second interrupt cuts them off. */
  drain(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    const forced = this.hold?.inFlight;
    return new Promise<void>((resolve) => {
      this.drained.push(resolve);
      forced?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  count(status: number): void {
    this.refused[status] = (this.refused[status] ?? 0) + 1;
  }

  answer(res: ServerResponse, reply: Reply): void {
    if (res.headersSent || res.destroyed) return;
    const headers: Record<string, string> = { ...reply.headers };
    if (this.closing) headers.connection = 'close';
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  }

  refuse(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
    this.count(status);
    this.answer(res, { status, headers: { ...TEXT, ...headers }, body: `${text}\n` });
  }
}

/** Reads the body whole and hands it to `whole`; over `maxBody` (declared or sent) it is refused with 413. */
function readWhole(
  req: IncomingMessage,
  res: ServerResponse,
  maxBody: number,
  requests: Requests,
  whole: (body: Buffer) => void,
): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBody) {
    requests.refuse(res, 413, `body over ${maxBody} bytes`, { connection: 'close' });
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > maxBody) {
      over = true;
      chunks.length = 0;
      requests.refuse(res, 413, `body over ${maxBody} bytes`, { connection: 'close' });
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    if (over || res.writableEnded || res.destroyed) return;
    whole(Buffer.concat(chunks, size));
  });
}

/** The listener of each request: counted in flight, logged once answered, checked, read whole, handled. */
function requestListener(options: ServeOptions, requests: Requests) {
  const methods = (options.methods ?? ['POST']).map((m) => m.toUpperCase());
  const maxBody = options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  return (req: IncomingMessage, res: ServerResponse): void => {
    requests.begin();
    const started = performance.now();
    let ended = false;
    res.once('close', () => {
      if (ended) return;
      ended = true;
      requests.end();
      options.log?.(
        `${req.method ?? '?'} ${req.url ?? ''} ${res.statusCode} ${Math.round(performance.now() - started)}ms`,
      );
    });
    const method = (req.method ?? '').toUpperCase();
    if (!methods.includes(method)) {
      req.resume();
      requests.refuse(res, 405, `method not allowed: use ${methods.join(', ')}`, { allow: methods.join(', ') });
      return;
    }
    readWhole(req, res, maxBody, requests, (body) => {
      const request: ServerRequest = {
        method,
        path: req.url ?? '/',
        headers: req.headers,
        body,
        remote: req.socket.remoteAddress ?? '',
      };
      Promise.resolve()
        .then(() => options.handle(request))
        .then(
          (reply) => requests.answer(res, reply),
          (error: unknown) => {
            options.onError?.(error);
            requests.answer(res, { status: 500, headers: TEXT, body: 'internal error\n' });
          },
        );
    });
  };
}

/** A request Node cannot parse or that timed out: answered when the socket still can, and the server goes on. */
function answerClientErrors(server: NodeServer, options: ServeOptions, requests: Requests): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    requests.count(status);
    options.log?.(`- - ${status} (${error.code ?? 'client error'})`);
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const title =
      status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(`HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  // A TLS handshake that fails is the sender's problem, not the server's.
  server.on('tlsClientError', (error: Error) => options.log?.(`- - TLS (${error.message.split('\n')[0]})`));
}

/** Listens on the address; one that cannot be bound is a UsageError naming --listen and why. */
function bind(server: NodeServer, { host, port }: ListenAddress): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use'
          : error.code === 'EACCES'
            ? 'not allowed (a port under 1024 needs privileges)'
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? 'no such address on this machine'
              : (error.code ?? error.message);
      reject(
        new UsageError(`--listen ${host.includes(':') ? `[${host}]` : host}:${port}: cannot listen there: ${why}`),
      );
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** Binds and resolves once listening; an address that cannot be bound is a UsageError naming --listen. */
export async function listen(options: ServeOptions): Promise<Server> {
  const requests = new Requests(options.letFinish);
  const limits = serverLimits(options);
  const onRequest = requestListener(options, requests);
  const server: NodeServer = options.tls
    ? createHttpsServer({ ...limits, cert: options.tls.cert, key: options.tls.key }, onRequest)
    : createHttpServer(limits, onRequest);
  answerClientErrors(server, options, requests);
  await bind(server, options.address);
  const { host, port } = options.address;
  const bound = server.address();
  const boundPort = typeof bound === 'object' && bound !== null ? bound.port : port;
  const url = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  options.announce?.stderr.write(`Listening on ${url}${options.announce.shownPath ?? ''}\n`);

  let closed: Promise<void> | undefined;
  return {
    url,
    port: boundPort,
    inFlight: () => requests.active,
    refused: requests.refused,
    close() {
      closed ??= (async () => {
        requests.closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (requests.active > 0) await requests.drain();
        server.closeAllConnections();
        await stopped;
      })();
      return closed;
    },
  };
}

/**
 * Serves until `until` settles (--max-events, --for) or `signal` aborts (Ctrl-C, SIGTERM), then
 * closes gracefully. Aborted: throws the InterruptedError of its signal (exit 130 or 143), with
 * `summary()` as its message; `until` rejecting closes the server and rethrows.
 */
export async function serveUntil(
  server: Server,
  opts: {
    signal?: AbortSignal;
    until?: Promise<unknown>;
    summary?: () => string | undefined;
    /** Called once it stops taking requests with some still in flight (to say it waits for them). */
    stopping?: (inFlight: number) => void;
  },
): Promise<void> {
  const { signal } = opts;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal?.aborted) resolve('aborted');
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([
      aborted,
      (opts.until ?? new Promise<never>(() => {})).then(() => 'done' as const),
    ]);
    const closing = server.close();
    if (server.inFlight() > 0) opts.stopping?.(server.inFlight());
    await closing;
    if (outcome === 'aborted') throw InterruptedError.of(signal, opts.summary?.());
  } catch (error) {
    await server.close();
    throw error;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
