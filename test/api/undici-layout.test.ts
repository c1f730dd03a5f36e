// mon loads undici file by file (src/api/undici.ts) and defers its HTTP/2 client
// (scripts/esbuild.config.mjs): both rest on undici's file layout, not its documented API. When an
// upgrade moves what they rely on, these tests fail and say what moved, rather than a command
// failing at run time. To upgrade undici: pin the new version exactly, run this file, and adjust
// src/api/undici.ts and the build plugin to the new layout.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildOptions, NODE_MAX_HEADER_SIZE } from '../../scripts/esbuild.config.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const undiciRoot = join(root, 'node_modules', 'undici');
const source = (file: string) => readFileSync(join(undiciRoot, file), 'utf8');

describe("undici's layout, as mon relies on it", () => {
  it('undici is pinned to one exact version, the one installed', () => {
    const pinned = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies.undici;
    expect(pinned, 'package.json must pin undici exactly (npm install --save-exact undici@X)').toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    expect((JSON.parse(source('package.json')) as { version: string }).version).toBe(pinned);
  });

  it('the files src/api/undici.ts imports are the ones undici’s index exports', () => {
    const index = require('undici') as Record<string, unknown>;
    expect(require('undici/lib/dispatcher/env-http-proxy-agent.js'), 'lib/dispatcher/env-http-proxy-agent.js').toBe(
      index.EnvHttpProxyAgent,
    );
    expect(require('undici/lib/dispatcher/dispatcher.js'), 'lib/dispatcher/dispatcher.js').toBe(index.Dispatcher);
    const api = require('undici/lib/api/index.js') as Record<string, unknown>;
    expect(require('undici/lib/api/api-request.js'), 'lib/api/api-request.js').toBe(api.request);
    expect(require('undici/lib/api/api-connect.js'), 'lib/api/api-connect.js').toBe(api.connect);
    // The index gives every dispatcher its API methods by this one assignment; src/api/undici.ts
    // does the same for request() and connect() alone.
    expect(source('index.js')).toContain('Object.assign(Dispatcher.prototype, api)');
    // The proxy agent opens its tunnel with connect(), and uses no other API method.
    const proxyAgent = source('lib/dispatcher/proxy-agent.js');
    expect(proxyAgent).toContain('this[kClient].connect(');
    expect(proxyAgent).not.toMatch(/\.(request|stream|pipeline|upgrade)\(/);
  });

  it('a tunnel the proxy closes fails as UND_ERR_SOCKET, which the client takes for a dropped connection and connects again for (src/api/undici.ts, connectTunnel)', () => {
    const client = source('lib/dispatcher/client.js');
    expect(client).toContain("err.code !== 'UND_ERR_SOCKET'");
    // undici 8 wraps that failure itself (ProxyConnectionError, nodejs/undici#3897): with such an
    // undici, connectTunnel can go.
    const proxyAgent = source('lib/dispatcher/proxy-agent.js');
    expect(proxyAgent).not.toContain('new ProxyConnectionError(');
    // A tunnel refused with a status is told by this message (src/api/network-error.ts, proxyFailure).
    expect(proxyAgent).toContain('`Proxy response (${statusCode}) !== 200 when HTTP Tunneling`');
  });

  it('client.js requires its HTTP/2 client once, as a function called for HTTP/2 connections only', () => {
    const client = source('lib/dispatcher/client.js');
    expect(
      client.match(/require\('\.\/client-h2\.js'\)/g),
      "require('./client-h2.js') in lib/dispatcher/client.js",
    ).toHaveLength(1);
    expect(client).toMatch(/const connectH2 = require\('\.\/client-h2\.js'\)/);
    // Only ever called, never read for a property: the build's stand-in is a function.
    expect(client.match(/connectH2\b/g)!.length).toBe(client.match(/connectH2\(/g)!.length + 1);
    expect(typeof require('undici/lib/dispatcher/client-h2.js')).toBe('function');
  });

  it("undici calls node:assert as a plain function only, which the build's stand-in is", () => {
    const { readdirSync } = require('node:fs') as typeof import('node:fs');
    const files = (readdirSync(join(undiciRoot, 'lib'), { recursive: true }) as string[]).filter((file) =>
      file.endsWith('.js'),
    );
    const users = files.filter((file) =>
      /require\('node:assert'\)|require\('assert'\)/.test(source(join('lib', file))),
    );
    expect(users.length).toBeGreaterThan(0);
    for (const file of users) {
      const text = source(join('lib', file));
      // Bound as `assert`, and never read for a property (assert.ok, assert.strictEqual…).
      expect(text, file).toMatch(/const assert = require\('(node:)?assert'\)/);
      expect(text.match(/\bassert\.\w/g), file).toBeNull();
    }
  });

  it("undici reads two values of node:http, which the build's stand-in gives without loading it", () => {
    const { readdirSync } = require('node:fs') as typeof import('node:fs');
    const files = (readdirSync(join(undiciRoot, 'lib'), { recursive: true }) as string[]).filter((file) =>
      file.endsWith('.js'),
    );
    const users = files.filter((file) => /require\('(node:)?http'\)/.test(source(join('lib', file))));
    // Besides these two, only fetch() and the mocks, which mon's bundle leaves out (see below).
    expect(users.sort()).toEqual(['core/util.js', 'dispatcher/client.js', 'mock/mock-utils.js', 'web/fetch/index.js']);
    // util.js: IncomingMessage, only compared with a body's constructor (the stand-in's is one no object has).
    const util = source('lib/core/util.js');
    expect(util).toContain("const { IncomingMessage } = require('node:http')");
    expect(util.match(/\bIncomingMessage\b/g)).toHaveLength(2);
    expect(util).toContain('.constructor === IncomingMessage');
    // client.js: http.maxHeaderSize alone, the default of its maxHeaderSize option.
    const client = source('lib/dispatcher/client.js');
    expect(client).toContain("const http = require('node:http')");
    expect(client.match(/\bhttp\.\w+/g)!.every((use) => use === 'http.maxHeaderSize')).toBe(true);
    // The stand-in's size is Node's default (this process runs without --max-http-header-size).
    expect(require('node:http').maxHeaderSize).toBe(NODE_MAX_HEADER_SIZE);
  });

  it('the bundle holds the agent and request() but neither undici’s cookies (which read globalThis.Headers) nor its HTTP/2 client at load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mon-undici-layout-'));
    try {
      const options = buildOptions({ outfile: join(dir, 'mon.cjs'), version: '0.0.0-test' });
      const { metafile } = await build({ ...options, absWorkingDir: root, metafile: true, logLevel: 'silent' });
      const inputs = Object.keys(metafile!.inputs);
      expect(inputs).toContain('node_modules/undici/lib/dispatcher/env-http-proxy-agent.js');
      expect(inputs).toContain('node_modules/undici/lib/api/api-request.js');
      expect(inputs).not.toContain('node_modules/undici/index.js');
      expect(inputs.filter((file) => file.includes('undici/lib/web/cookies'))).toEqual([]);
      // The stand-in took client-h2.js's place in client.js (the real file follows, loaded on use).
      expect(inputs.some((file) => file.startsWith('lazy-h2:'))).toBe(true);
      // And undici's node:assert is the stand-in that loads it only when an assertion fails.
      expect(inputs).toContain('lazy-assert:assert');
      // Its node:http is the stand-in too; the two other files that read node:http are left out.
      expect(inputs).toContain('lazy-http:http');
      for (const file of ['web/fetch/index.js', 'mock/mock-utils.js'])
        expect(inputs).not.toContain(`node_modules/undici/lib/${file}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
