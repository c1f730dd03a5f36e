import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError, InterruptedError } from '../../src/errors.js';
import {
  checkExposure,
  isLoopback,
  listen,
  parseListen,
  readTls,
  sameSecret,
  serveUntil,
  type ServeOptions,
  type Server,
} from '../../src/server/index.js';
import { tempDir } from '../helpers/run-mon.js';
import { selfSignedCert } from '../resilience/support.js';
import { rawRequest, rawSender } from './raw-http.js';

const LOOPBACK = parseListen('127.0.0.1:0');
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<ServeOptions> = {}): Promise<Server> {
  const server = await listen({
    address: LOOPBACK,
    handle: (req) => ({ status: 200, body: `got ${req.body.length} bytes at ${req.path}` }),
    ...options,
  });
  servers.push(server);
  return server;
}

/** A POST that a well-behaved client sends, answered by the server. */
async function post(server: Server, body = '{"a":1}', path = '/x'): Promise<{ status: number; text: string }> {
  const response = await request(`${server.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.statusCode, text: await response.body.text() };
}

const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no UsageError');
};

describe('--listen', () => {
  it.each([
    ['127.0.0.1:8787', '127.0.0.1', 8787, true],
    [':9000', '127.0.0.1', 9000, true],
    ['localhost:1', 'localhost', 1, true],
    ['[::1]:8787', '::1', 8787, true],
    ['127.8.9.10:0', '127.8.9.10', 0, true],
    ['0.0.0.0:8787', '0.0.0.0', 8787, false],
    ['[::]:8787', '::', 8787, false],
    ['hooks.example.com:443', 'hooks.example.com', 443, false],
    ['[::ffff:127.0.0.1]:80', '::ffff:127.0.0.1', 80, true],
  ])('%s is %s port %s (loopback: %s)', (value, host, port, loopback) => {
    expect(parseListen(value)).toEqual({ host, port, loopback });
  });

  it.each([
    '8787',
    '127.0.0.1',
    '127.0.0.1:65536',
    '127.0.0.1:-1',
    '127.0.0.1:http',
    '::1:8787',
    '[127.0.0.1]:80',
    'a b:80',
    '[::1]',
    '',
  ])('%j is refused naming the option', (value) => {
    expect(usage(() => parseListen(value, '--listen'))).toMatch(/^--listen /);
  });

  it('says loopback by the address only', () => {
    expect([
      isLoopback('127.0.0.1'),
      isLoopback('::1'),
      isLoopback('LOCALHOST'),
      isLoopback('10.0.0.1'),
      isLoopback('0.0.0.0'),
      isLoopback('::'),
      isLoopback('127.example.com'),
    ]).toEqual([true, true, true, false, false, false, false]);
  });
});

describe('leaving loopback', () => {
  const exposure = { credentialOptions: '--secret', credential: false, tls: false, insecure: false };
  it('asks nothing on loopback', () => {
    expect(() => checkExposure({ ...exposure, address: parseListen('127.0.0.1:1') })).not.toThrow();
  });
  it('needs a credential, then TLS or --insecure', () => {
    const address = parseListen('0.0.0.0:8787');
    expect(usage(() => checkExposure({ ...exposure, address }))).toMatch(/^--listen 0\.0\.0\.0:8787 .*needs --secret/);
    expect(usage(() => checkExposure({ ...exposure, address, credential: true }))).toMatch(
      /--tls-cert and --tls-key, or --insecure/,
    );
    expect(() => checkExposure({ ...exposure, address, credential: true, insecure: true })).not.toThrow();
    expect(() => checkExposure({ ...exposure, address, credential: true, tls: true })).not.toThrow();
    expect(usage(() => checkExposure({ ...exposure, address, tls: true, insecure: true }))).toMatch(/needs --secret/);
  });
});

describe('secrets', () => {
  it('match only whole', () => {
    expect(sameSecret('s3cret-value', 's3cret-value')).toBe(true);
    expect(sameSecret('s3cret-valu', 's3cret-value')).toBe(false);
    expect(sameSecret('s3cret-value!', 's3cret-value')).toBe(false);
    expect(sameSecret('', 's3cret-value')).toBe(false);
    expect(sameSecret(undefined, 's3cret-value')).toBe(false);
  });
});

describe('limits: every bad request is answered and the server goes on', () => {
  it('405 with Allow for another method', async () => {
    const server = await start();
    const response = await request(`${server.url}/x`, { method: 'GET' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    await response.body.text();
    expect(await post(server)).toEqual({ status: 200, text: 'got 7 bytes at /x' });
  });

  it('413 for a declared body over the limit, before it is read', async () => {
    const server = await start({ maxBodyBytes: 1024 });
    expect(await rawRequest(server.port, `POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1025\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 413 /,
    );
    expect(await post(server, 'x'.repeat(1024))).toEqual({ status: 200, text: 'got 1024 bytes at /x' });
  });

  it('413 for a chunked body that grows over the limit', async () => {
    const server = await start({ maxBodyBytes: 1024 });
    const sender = await rawSender(server.port);
    sender.write(`POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n`);
    for (let i = 0; i < 3; i++) sender.write(`200\r\n${'y'.repeat(512)}\r\n`);
    expect(await sender.statusLine()).toMatch(/^HTTP\/1\.1 413 /);
    sender.socket.destroy();
    expect(server.refused[413]).toBe(1);
    expect((await post(server)).status).toBe(200);
  });

  it('408 for a sender too slow with its headers or its body', async () => {
    const server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const silent = await rawSender(server.port);
    const slowBody = await rawSender(server.port);
    slowBody.write(`POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{"a":`);
    const [silentText, slowText] = await Promise.all([silent.closed(), slowBody.closed()]);
    expect(silentText).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(slowText).toMatch(/^HTTP\/1\.1 408 /);
    expect(await post(server)).toEqual({ status: 200, text: 'got 7 bytes at /x' });
  });

  it('400 for what is not HTTP, 500 for a handler that throws', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const server = await start({
      handle: () => {
        if (calls++ === 0) throw new Error('boom');
        return { status: 204 };
      },
      onError: (error) => errors.push(error),
    });
    expect(await rawRequest(server.port, 'HELLO THERE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect((await post(server)).status).toBe(500);
    expect(errors).toHaveLength(1);
    expect((await post(server)).status).toBe(204);
  });

  it('logs one line a request', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    await post(server, '{}', '/hook?x=1');
    expect(lines).toEqual([expect.stringMatching(/^POST \/hook\?x=1 200 \d+ms$/)]);
  });
});

describe('listening and closing', () => {
  it('prints the URL once listening', async () => {
    let text = '';
    const server = await start({
      announce: { stderr: { write: (chunk: string) => (text += chunk) }, shownPath: '/events' },
    });
    expect(text).toBe(`Listening on http://127.0.0.1:${server.port}/events\n`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('refuses a port in use, naming --listen', async () => {
    const server = await start();
    await expect(
      listen({ address: parseListen(`127.0.0.1:${server.port}`), handle: () => ({ status: 200 }) }),
    ).rejects.toThrow(new UsageError(`--listen 127.0.0.1:${server.port}: cannot listen there: the port is in use`));
  });

  it('stops accepting, lets the request in flight finish, then closes', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const holds: string[] = [];
    const server = await start({
      handle: async () => {
        entered();
        await held;
        return { status: 200, body: 'finished' };
      },
      letFinish: () => {
        holds.push('hold');
        return { inFlight: new AbortController().signal, release: () => holds.push('release') };
      },
    });
    const pending = post(server);
    await inHandler;
    expect(server.inFlight()).toBe(1);
    const closing = server.close();
    // No new connection is taken while the one in flight finishes.
    await expect(
      new Promise((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1');
        socket.once('connect', () => resolve(socket.destroy()));
        socket.once('error', reject);
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    release();
    expect(await pending).toEqual({ status: 200, text: 'finished' });
    await closing;
    expect(holds).toEqual(['hold', 'release']);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])('serveUntil ends on %s with exit %s, saying what was done', async (signalName, code) => {
    const server = await start();
    const controller = new AbortController();
    const serving = serveUntil(server, { signal: controller.signal, summary: () => 'received 0 events' });
    expect((await post(server)).status).toBe(200);
    controller.abort(signalName);
    const error = await serving.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(code);
    expect((error as InterruptedError).message).toBe('received 0 events');
    await expect(post(server)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('serveUntil returns when its work is done', async () => {
    const server = await start();
    await serveUntil(server, { signal: new AbortController().signal, until: Promise.resolve() });
    await expect(post(server)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('TLS', () => {
  it('serves HTTPS from --tls-cert and --tls-key', async () => {
    const { cert, key, certFile } = selfSignedCert();
    const keyFile = join(tempDir('mon-tls-key-'), 'key.pem');
    writeFileSync(keyFile, key);
    const tls = await readTls(certFile, keyFile);
    const server = await start({ tls });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const dispatcher = new Agent({ connect: { ca: cert } });
    const response = await request(`${server.url}/t`, { method: 'POST', body: 'abc', dispatcher });
    expect(await response.body.text()).toBe('got 3 bytes at /t');
    await dispatcher.close();
  });

  it('needs both files, readable, and a usable pair', async () => {
    const dir = tempDir('mon-tls-bad-');
    const notPem = join(dir, 'x.pem');
    writeFileSync(notPem, 'not a certificate');
    await expect(readTls(undefined, undefined)).resolves.toBeUndefined();
    await expect(readTls('a.pem', undefined)).rejects.toThrow(/^--tls-cert needs --tls-key too$/);
    await expect(readTls(undefined, 'b.pem')).rejects.toThrow(/^--tls-key needs --tls-cert too$/);
    await expect(readTls(join(dir, 'missing.pem'), notPem)).rejects.toThrow(
      /^--tls-cert .*missing\.pem: cannot read it \(ENOENT\)$/,
    );
    await expect(readTls(notPem, notPem)).rejects.toBeInstanceOf(UsageError);
  });
});
