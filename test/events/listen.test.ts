import { createServer, type IncomingMessage } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/run-mon.js';
import { rawRequest, rawSender } from '../server/raw-http.js';
import { deliver, lines, listenInProcess, pluginEvent, post, type RunningListener } from './helpers.js';

const running: RunningListener[] = [];
afterEach(async () => {
  for (const listener of running.splice(0)) {
    listener.stop('SIGTERM');
    await listener.ended;
  }
});
async function start(args: readonly string[] = [], env: Record<string, string> = {}): Promise<RunningListener> {
  const listener = await listenInProcess(args, env);
  running.push(listener);
  return listener;
}
/** Ends a listener by --max-events: resolves with its exit code. */
async function finished(listener: RunningListener): Promise<number | null> {
  running.splice(running.indexOf(listener), 1);
  return (await listener.ended).code;
}

describe('mon events listen', () => {
  it('prints the URL, one JSON line per event with what it understood, and each event once', async () => {
    const listener = await start(['--max-events', '3']);
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/events$/);
    expect(await post(listener.url, pluginEvent('ev_1'))).toEqual({ status: 200, text: 'ok\n' });
    // A retry of a delivery handled: answered, not shown again.
    expect(await post(listener.url, pluginEvent('ev_1'))).toEqual({
      status: 200,
      text: 'duplicate: already handled\n',
    });
    // Without an event_id, the same body is the same delivery.
    expect((await post(listener.url, pluginEvent(undefined, 'warning'))).status).toBe(200);
    expect((await post(listener.url, pluginEvent(undefined, 'warning'))).status).toBe(200);
    expect((await post(listener.url, pluginEvent('ev_3', 'ok', 'alert'))).status).toBe(200);
    expect(await finished(listener)).toBe(0);
    const events = lines(listener.stdout.text);
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({
      ...JSON.parse(pluginEvent('ev_1')),
      _mon: {
        kind: 'plugin',
        id: 'ev_1',
        computer: 'web-01',
        group: 'Servers',
        plugin: 'Disk Usage',
        severity: 'alert',
        previous_severity: 'ok',
        transition: 'OK → Alert',
        is_hidden: false,
      },
    });
    expect(events[1]!._mon).toMatchObject({
      kind: 'plugin',
      id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      transition: 'OK → Warning',
    });
    expect(listener.stderr.text).toMatch(/Stopped: 3 events handled, 2 duplicates answered\.\n$/);
  });

  it('on a terminal, one line of time, account, computer, group, plugin and transition, in colour', async () => {
    const listener = await listenInProcess(
      ['-p', 'acme', '--max-events', '2', '--include-tests'],
      { FORCE_COLOR: '1' },
      true,
    );
    running.push(listener);
    await post(listener.url, pluginEvent('t1', 'alert', 'ok'));
    await post(listener.url, JSON.stringify({ svc_test: true, event_id: 'svc_test_x' }));
    expect(await finished(listener)).toBe(0);
    const shown = listener.stdout.text.split('\n');
    expect(shown[0]).toMatch(
      /^\x1b\[2m\d\d:\d\d:\d\d\x1b\[22m {2}acme {2}web-01 {2}Servers {2}Disk Usage {2}OK →\x1b\[31m Alert\x1b\[39m$/,
    );
    expect(shown[1]).toMatch(/ {2}\x1b\[36mtest delivery\x1b\[39m {2}svc_test_x$/);
  });

  it('-o json prints a line per event too', async () => {
    const listener = await start(['-o', 'json', '--max-events', '2']);
    await post(listener.url, pluginEvent('j1'));
    await post(listener.url, pluginEvent('j2'));
    expect(await finished(listener)).toBe(0);
    expect(lines(listener.stdout.text).map((event) => event.event_id)).toEqual(['j1', 'j2']);
  });

  it('answers test deliveries and connection_test, and shows them with --include-tests', async () => {
    const quiet = await start(['--max-events', '1']);
    expect((await post(quiet.url, JSON.stringify({ svc_test: true, event_id: 'svc_test_abc' }))).status).toBe(200);
    expect(
      (await post(quiet.url, JSON.stringify({ svc_test: true, event_id: 'svc_test_def', event: 'connection_test' })))
        .status,
    ).toBe(200);
    await post(quiet.url, pluginEvent('ev_2'));
    expect(await finished(quiet)).toBe(0);
    expect(lines(quiet.stdout.text).map((event) => (event._mon as { id: string }).id)).toEqual(['ev_2']);
    expect(quiet.stderr.text).toContain('test delivery svc_test_abc received and answered');
    expect(quiet.stderr.text).toContain('connection test svc_test_def received and answered');

    const shown = await start(['--include-tests', '--max-events', '2']);
    await post(shown.url, JSON.stringify({ svc_test: true, event_id: 'svc_test_abc' }));
    await post(shown.url, JSON.stringify({ svc_test: true, event_id: 'svc_test_def', event: 'connection_test' }));
    expect(await finished(shown)).toBe(0);
    expect(lines(shown.stdout.text).map((event) => (event._mon as { kind: string }).kind)).toEqual([
      'test',
      'connection_test',
    ]);
  });

  it('shows a payload it does not know as sent, never refusing it', async () => {
    const listener = await start(['--max-events', '3']);
    expect((await post(listener.url, 'plain text, not JSON', { 'content-type': 'text/plain' })).status).toBe(200);
    expect((await post(listener.url, '[1,2,3]')).status).toBe(200);
    expect((await post(listener.url, JSON.stringify({ hello: 'world', nested: { a: [1] } }))).status).toBe(200);
    expect(await finished(listener)).toBe(0);
    const [text, array, object] = lines(listener.stdout.text);
    expect(text!._mon).toMatchObject({ kind: 'unknown', body: 'plain text, not JSON' });
    expect(array!._mon).toMatchObject({ kind: 'unknown', body: '[1,2,3]' });
    expect(object).toMatchObject({ hello: 'world', nested: { a: [1] }, _mon: { kind: 'unknown' } });
  });

  it('filters by severity, group, computer and plugin (any of a list, any case)', async () => {
    const listener = await start([
      '--severity',
      'Alert,warning',
      '--group',
      'servers',
      '--plugin',
      'Disk Usage',
      '--max-events',
      '2',
    ]);
    await post(listener.url, pluginEvent('a', 'ok', 'alert'));
    await post(listener.url, pluginEvent('b', 'alert', 'ok', { group: { name: 'Laptops' } }));
    await post(listener.url, pluginEvent('c', 'alert', 'ok', { plugin_result: { name: 'Backup' } }));
    await post(listener.url, pluginEvent('d', 'warning'));
    await post(listener.url, JSON.stringify({ hello: 1 }));
    await post(listener.url, pluginEvent('e', 'alert'));
    expect(await finished(listener)).toBe(0);
    expect(lines(listener.stdout.text).map((event) => (event._mon as { id: string }).id)).toEqual(['d', 'e']);
    expect(listener.stderr.text).toContain('4 filtered out');
  });

  it('runs --jq on each event as it comes', async () => {
    const listener = await start(['--jq', '._mon.transition', '--max-events', '2']);
    await post(listener.url, pluginEvent('j1', 'alert'));
    await listener.stdout.until((text) => text === 'OK → Alert\n');
    await post(listener.url, pluginEvent('j2', 'ok', 'alert'));
    expect(await finished(listener)).toBe(0);
    expect(listener.stdout.text).toBe('OK → Alert\nAlert → OK\n');
  });

  it('stops after --for, and on Ctrl-C or SIGTERM with 130 or 143', async () => {
    const timed = await start(['--for', '1s']);
    expect(await finished(timed)).toBe(0);
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const listener = await start();
      await post(listener.url, pluginEvent('s1'));
      listener.stop(signal);
      expect(await finished(listener)).toBe(code);
      expect(listener.stderr.text).toMatch(/mon: stopped: 1 event handled\n$/);
    }
  });
});

describe('hostile senders leave it serving', () => {
  it('oversized, slow, non-HTTP and wrong-method requests, then a good delivery', async () => {
    const listener = await start(['--max-events', '1']);
    const { port, pathname } = new URL(listener.url);
    expect(
      await rawRequest(
        Number(port),
        `POST ${pathname} HTTP/1.1\r\nHost: a\r\nContent-Length: ${1024 * 1024 + 1}\r\n\r\n`,
      ),
    ).toMatch(/^HTTP\/1\.1 413 /);
    const big = Buffer.alloc(1024 * 1024 + 10, 'x');
    const chunked = await rawSender(Number(port));
    chunked.write(
      `POST ${pathname} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n`,
    );
    chunked.write(big);
    expect(await chunked.statusLine()).toMatch(/^HTTP\/1\.1 413 /);
    chunked.socket.destroy();
    expect(await rawRequest(Number(port), `GET ${pathname} HTTP/1.1\r\nHost: a\r\n\r\n`)).toMatch(/^HTTP\/1\.1 405 /);
    expect(await rawRequest(Number(port), `\x16\x03\x01garbage\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect((await post(`http://127.0.0.1:${port}/elsewhere`, pluginEvent('x'))).status).toBe(404);
    // A sender that stops half-way through its body holds nothing up: the next one is served.
    const slow = await rawSender(Number(port));
    slow.write(`POST ${pathname} HTTP/1.1\r\nHost: a\r\nContent-Length: 500\r\n\r\n{"event_id":`);
    expect((await post(listener.url, pluginEvent('good'))).status).toBe(200);
    expect(await finished(listener)).toBe(0);
    slow.socket.destroy();
    expect(lines(listener.stdout.text).map((event) => (event._mon as { id: string }).id)).toEqual(['good']);
  });
});

describe('a secret', () => {
  const SECRET = 'hunter2-but-longer-0123';

  it('is needed in the path or as a bearer token; a wrong one is refused and it is never printed', async () => {
    const listener = await start(['--max-events', '2', '--verbose'], { MON_EVENTS_SECRET: SECRET });
    expect(listener.url).toMatch(/\/events\/\$MON_EVENTS_SECRET$/);
    const base = listener.url.replace(/\/\$MON_EVENTS_SECRET$/, '');
    expect((await post(base, pluginEvent('n1'))).status).toBe(404);
    expect((await post(`${base}/wrong-secret-of-same-len`, pluginEvent('n2'))).status).toBe(404);
    expect((await post(`${base}/${SECRET.slice(0, -1)}`, pluginEvent('n3'))).status).toBe(404);
    expect(
      (await post(base, pluginEvent('n4'), { 'content-type': 'application/json', authorization: 'Bearer nope' }))
        .status,
    ).toBe(404);
    expect((await post(`${base}/${SECRET}`, pluginEvent('y1'))).status).toBe(200);
    expect(
      (await post(base, pluginEvent('y2'), { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` }))
        .status,
    ).toBe(200);
    expect(await finished(listener)).toBe(0);
    expect(lines(listener.stdout.text).map((event) => (event._mon as { id: string }).id)).toEqual(['y1', 'y2']);
    expect(listener.stderr.text).toContain('4 refused (path or secret)');
    // -v logs each request, the secret and the guesses at it hidden.
    expect(listener.stderr.text).toMatch(/^POST \/events\/… 200 \d+ms$/m);
    expect(listener.stderr.text).toMatch(/^POST \/events 404 \d+ms$/m);
    expect(listener.stderr.text).not.toContain('wrong-secret');
    expect(`${listener.stdout.text}${listener.stderr.text}`).not.toContain(SECRET);
    expect(`${listener.stdout.text}${listener.stderr.text}`).not.toContain(SECRET.slice(0, 10));
  });

  it.each([
    [
      ['--listen', '0.0.0.0:0'],
      {},
      /^mon: --listen 0\.0\.0\.0:0 is not a loopback address: it needs a secret in MON_EVENTS_SECRET/,
    ],
    [
      ['--listen', '0.0.0.0:0'],
      { MON_EVENTS_SECRET: SECRET },
      /^mon: --listen 0\.0\.0\.0:0 is not a loopback address: give --tls-cert and --tls-key, or --insecure/,
    ],
    [[], { MON_EVENTS_SECRET: 'short' }, /^mon: MON_EVENTS_SECRET: at least 16 characters \(it has 5\)/],
    [['--listen', '127.0.0.1'], {}, /^mon: --listen "127\.0\.0\.1": expected HOST:PORT/],
    [['--tls-cert', 'a.pem'], {}, /^mon: .*--tls-cert.*--tls-key/],
    [['--path', 'events'], {}, /^mon: --path "events": must start with \//],
    [['-o', 'csv'], {}, /^mon: -o csv: `mon events listen` prints a line per event/],
    [['--max-events', '0'], {}, /^mon: --max-events/],
    [['--output-file', '/'], {}, /^mon: --output-file \/: cannot append to it \(EISDIR\)/],
  ])('%j %j: exit 2, one line, nothing bound', async (args, env, message) => {
    const result = await runMain(['events', 'listen', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('Listening');
    expect(result.stderr).not.toContain(SECRET);
  });

  it('off loopback with the secret and --insecure, it listens', async () => {
    const listener = await start(['--listen', '0.0.0.0:0', '--insecure', '--max-events', '1'], {
      MON_EVENTS_SECRET: SECRET,
    });
    const port = new URL(listener.url.replace('$MON_EVENTS_SECRET', 'x')).port;
    expect((await post(`http://127.0.0.1:${port}/events/${SECRET}`, pluginEvent('i1'))).status).toBe(200);
    expect(await finished(listener)).toBe(0);
  });
});

describe('hand-off', () => {
  it('--exec gets each event on stdin; a failing command is counted and the listener lives', async () => {
    const dir = tempDir('mon-exec-');
    const script = `cat > "${dir}/$MON_EVENT_ID.json"; echo "secret:\${MON_EVENTS_SECRET:-none}" >&2; case "$MON_EVENT_ID" in bad*) echo "no chat today" >&2; exit 3;; esac`;
    const listener = await start(['--exec', script, '--exec-parallel', '2', '--max-events', '3'], {
      MON_EVENTS_SECRET: 'kept-from-the-command-0123',
    });
    const url = listener.url.replace('$MON_EVENTS_SECRET', 'kept-from-the-command-0123');
    expect((await post(url, pluginEvent('good1'))).status).toBe(200);
    expect((await post(url, pluginEvent('bad1'))).status).toBe(200);
    expect((await post(url, pluginEvent('good2'))).status).toBe(200);
    expect(await finished(listener)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['bad1.json', 'good1.json', 'good2.json']);
    expect(JSON.parse(readFileSync(join(dir, 'good1.json'), 'utf8'))).toMatchObject({
      event_id: 'good1',
      _mon: { kind: 'plugin' },
    });
    expect(listener.stderr.text).toContain('no chat today');
    // The listener's secret is not handed to the commands it runs.
    expect(listener.stderr.text.match(/secret:none/g)).toHaveLength(3);
    expect(listener.stderr.text).toContain('--exec: for event bad1: exit status 3 (1 failed so far)');
    expect(listener.stderr.text).toMatch(/Stopped: 3 events handled, --exec failed 1 time\.\n$/);
  });

  it('--exec that runs past --exec-timeout is stopped and counted', async () => {
    const listener = await start(['--exec', 'sleep 30', '--exec-timeout', '1s', '--max-events', '1']);
    expect((await post(listener.url, pluginEvent('slow'))).status).toBe(200);
    expect(await finished(listener)).toBe(0);
    expect(listener.stderr.text).toContain('--exec: for event slow: did not finish within 1s');
  });

  it('--forward-to re-posts body and content type; a refusal is a 503 the sender retries', async () => {
    const received: { body: string; type: string | undefined }[] = [];
    let answers = [500, 200, 200];
    const app = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ body, type: req.headers['content-type'] });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const appUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/hook`;
    try {
      const listener = await start(['--forward-to', appUrl, '--max-events', '2']);
      const body = pluginEvent('f1');
      expect(await post(listener.url, body, { 'content-type': 'application/json; charset=utf-8' })).toEqual({
        status: 503,
        text: 'not handled: send it again\n',
      });
      expect((await post(listener.url, body, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
      expect((await post(listener.url, 'x=1', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(
        200,
      );
      expect(await finished(listener)).toBe(0);
      expect(received).toEqual([
        { body, type: 'application/json; charset=utf-8' },
        { body, type: 'application/json; charset=utf-8' },
        { body: 'x=1', type: 'application/x-www-form-urlencoded' },
      ]);
      expect(lines(listener.stdout.text)).toHaveLength(2);
      expect(listener.stderr.text).toContain('--forward-to: event f1 not accepted: answered 500 (1 so far)');
      expect(listener.stderr.text).toMatch(/1 answered 503, --forward-to refused 1 time\.\n$/);
      // Closed: a delivery it cannot forward at all is a 503 too, and the listener lives.
      const again = await start(['--forward-to', 'http://127.0.0.1:1/nothing-here', '--max-events', '1']);
      expect((await post(again.url, pluginEvent('f2'))).status).toBe(503);
      expect(again.stderr.text).toContain('--forward-to: event f2 not accepted');
      await new Promise<void>((resolve) => app.close(() => resolve()));
      answers = [];
    } finally {
      app.closeAllConnections();
      app.close();
    }
  });
});

describe('--output-file', () => {
  it('appends each event, and a restart knows what it already handled', async () => {
    const file = join(tempDir('mon-events-'), 'events.ndjson');
    const first = await start(['--output-file', file, '--max-events', '2']);
    await post(first.url, pluginEvent('o1'));
    await post(first.url, pluginEvent(undefined, 'warning'));
    expect(await finished(first)).toBe(0);
    const second = await start(['--output-file', file, '--max-events', '1']);
    expect(await post(second.url, pluginEvent('o1'))).toEqual({ status: 200, text: 'duplicate: already handled\n' });
    expect(await post(second.url, pluginEvent(undefined, 'warning'))).toEqual({
      status: 200,
      text: 'duplicate: already handled\n',
    });
    await deliver(() => second.url, pluginEvent('o2'));
    expect(await finished(second)).toBe(0);
    expect(lines(readFileSync(file, 'utf8')).map((event) => (event._mon as { id: string }).id)).toEqual([
      'o1',
      expect.stringMatching(/^sha256:/),
      'o2',
    ]);
    expect(lines(second.stdout.text)).toHaveLength(1);
  });

  it('takes it before the verb too: each event once in the file, and printed', async () => {
    const file = join(tempDir('mon-events-'), 'events.ndjson');
    const listener = await listenInProcess(['--max-events', '1'], {}, false, ['--output-file', file]);
    running.push(listener);
    await post(listener.url, pluginEvent('b1'));
    expect(await finished(listener)).toBe(0);
    expect(lines(readFileSync(file, 'utf8')).map((event) => (event._mon as { id: string }).id)).toEqual(['b1']);
    expect(lines(listener.stdout.text).map((event) => event.event_id)).toEqual(['b1']);
  });
});
