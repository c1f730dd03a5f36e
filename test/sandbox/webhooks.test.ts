/**
 * Outgoing webhooks (#43, item 2): a receiver in the test gets each event once per transition,
 * with the fields the reference's Events section names, retried after a 500 and after a dropped
 * connection, given up with a notice after its bound.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { Api, Clock, DAY, NOW_SEC } from './helpers.js';

interface Receiver {
  url: string;
  /** every request body received, parsed, in order */
  received: any[];
  close(): Promise<void>;
}

/** A webhook receiver on loopback; `answer` decides each request's fate by its number (0-based). */
async function receiver(
  answer: (n: number, req: IncomingMessage, res: ServerResponse) => void = (_n, _req, res) => res.writeHead(204).end(),
): Promise<Receiver> {
  const received: any[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      answer(received.length - 1, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

async function sandboxWith(
  hook: Receiver,
  options: SandboxOptions = {},
): Promise<{ sandbox: RunningSandbox; api: Api; notices: string[] }> {
  const notices: string[] = [];
  const sandbox = await startSandbox({
    port: 0,
    now: new Clock().now,
    live: { speed: 60 },
    webhooks: [hook.url],
    webhookRetry: { firstDelayMs: 10, maxDelayMs: 40, timeoutMs: 2_000 },
    onNotice: (m) => notices.push(m),
    ...options,
  });
  cleanup.push(
    () => hook.close(),
    () => sandbox.close(),
  );
  return { sandbox, api: new Api(sandbox), notices };
}

describe('webhooks', () => {
  it('POST one event per transition with the fields the reference names', async () => {
    const hook = await receiver();
    const { sandbox } = await sandboxWith(hook);
    const made = sandbox.tick(DAY);
    await sandbox.webhooksSettled();
    expect(made.length).toBe(8);
    expect(hook.received).toHaveLength(made.length);
    expect(new Set(hook.received.map((e) => e.event_id)).size).toBe(made.length);
    const first = hook.received[0];
    expect(first).toMatchObject({
      event_id: expect.stringMatching(/^evt_[0-9a-f]{16}$/),
      event: 'plugin_result.state_changed',
      occurred_at: NOW_SEC + 18795,
      severity: 'warning',
      previous_severity: 'ok',
      status_code: 1,
      previous_status: 0,
      new_status: 1,
      mute_type: null,
      is_hidden: false,
      plugin_result: { uid: made[0]!.result.uid, status: 'Warning', name: 'macOS Updates' },
      computer: { client_id: made[0]!.computer.client_id, uid: made[0]!.computer.uid },
      group: { uid: made[0]!.computer.group },
    });
    expect(hook.received.map((e) => `${e.previous_severity}->${e.severity}`)).toEqual(
      made.map((t) => `${t.previous.toLowerCase()}->${t.status.toLowerCase()}`),
    );
  });

  it('retries after a 500 and after a dropped connection: each event accepted once', async () => {
    const hook = await receiver((n, _req, res) => {
      if (n % 3 === 0) res.writeHead(500).end('{}');
      else if (n % 3 === 1) res.socket?.destroy();
      else res.writeHead(200).end();
    });
    const { sandbox, notices } = await sandboxWith(hook);
    // one transition at a time, so the receiver's count is per event
    const forced = await new Api(sandbox).send('POST', '/_sandbox/trigger', { kind: 'alert' });
    expect(forced.status).toBe(200);
    await sandbox.webhooksSettled();
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((e) => e.event_id)).size).toBe(1);
    expect(hook.received[0]).toMatchObject({
      severity: 'alert',
      plugin_result: { uid: forced.body.plugin_result_uid },
    });
    expect(notices).toEqual([]);
  });

  it('gives up after its bound with one notice naming the event and the last answer', async () => {
    const hook = await receiver((_n, _req, res) => res.writeHead(503).end());
    const { sandbox, api, notices } = await sandboxWith(hook, {
      webhookRetry: { firstDelayMs: 10, maxDelayMs: 20, giveUpAfterMs: 100, timeoutMs: 2_000 },
    });
    await api.send('POST', '/_sandbox/trigger', { kind: 'warning' });
    await sandbox.webhooksSettled();
    expect(hook.received.length).toBeGreaterThan(1);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      new RegExp(
        `^sandbox: webhook ${hook.received[0].event_id} to ${hook.url} given up after ${hook.received.length} attempts \\(last: HTTP 503\\)$`,
      ),
    );
  });

  it('trigger test sends a synthetic delivery: top-level svc_test, event_id svc_test_…; connection_test says whether the address answers', async () => {
    const hook = await receiver();
    const { sandbox, api } = await sandboxWith(hook, { live: undefined });
    const res = await api.send('POST', '/_sandbox/trigger', { kind: 'test' });
    expect(res.status).toBe(200);
    expect(hook.received).toEqual([
      expect.objectContaining({ svc_test: true, event_id: expect.stringMatching(/^svc_test_/) }),
    ]);
    expect(res.body).toMatchObject({
      event_id: hook.received[0].event_id,
      deliveries: [{ url: hook.url, status: 204, delivered: true, attempts: 1 }],
    });
    const probe = await api.send('POST', '/_sandbox/trigger', { kind: 'connection_test' });
    expect(probe.body.deliveries).toEqual([{ url: hook.url, status: 204, delivered: true, attempts: 1 }]);
    expect(hook.received[1]).toMatchObject({
      event: 'connection_test',
      svc_test: true,
      event_id: expect.stringMatching(/^svc_test_/),
    });
    await hook.close();
    const down = await api.send('POST', '/_sandbox/trigger', { kind: 'connection_test' });
    expect(down.body.deliveries).toEqual([
      { url: hook.url, delivered: false, attempts: 1, error: expect.stringMatching(/ECONNREFUSED/) },
    ]);
    await sandbox.webhooksSettled();
  });
});
