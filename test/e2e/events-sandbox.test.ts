/**
 * `mon events listen` beside `mon sandbox serve --live --webhook …`, both spawned as a user runs
 * them (#44 item 5): the sandbox's deliveries (forced with `mon sandbox trigger`, simulated with
 * `trigger tick`) each arrive once in --output-file and on stdout, with the fields the reference
 * names as the sandbox sends them and what mon understood of them; a test delivery and a
 * connection_test are known as such; a listener killed mid-stream and restarted on its port
 * still gets every event once, because the sandbox sends again what got no answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lines as allLines, listenProcess, type RunningListener } from '../events/helpers.js';
import { MON_BIN, runMon, tempConfigDir, tempDir } from '../helpers/run-mon.js';

const children: ChildProcess[] = [];
const listeners: RunningListener[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) {
    listener.stop('SIGKILL');
    await listener.ended;
  }
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await gone;
  }
});

/** The whole lines of text that may still grow (a line can come in two chunks), parsed. */
const lines = (text: string): Record<string, unknown>[] => allLines(text.slice(0, text.lastIndexOf('\n') + 1));

type Event = Record<string, unknown> & { _mon: Record<string, unknown> };

/**
 * `mon sandbox serve --live --webhook URL --port 0` in a config folder of its own; resolves once
 * its banner is out, with what `mon sandbox trigger …` needs to find it. `--speed 1` keeps the
 * fleet still between the test's steps (a step of 5 simulated minutes takes 5 real ones), so
 * every event comes from a trigger.
 */
async function livingSandbox(
  webhook: string,
): Promise<{ trigger: (...args: string[]) => ReturnType<typeof runMon>; stderr: () => string }> {
  const dir = tempConfigDir();
  const env = { PATH: process.env.PATH ?? '', HOME: dir, MON_CONFIG_DIR: dir };
  const child = spawn(
    process.execPath,
    [MON_BIN, 'sandbox', 'serve', '--live', '--speed', '1', '--webhook', webhook, '--port', '0'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('export MON_API_KEY=')) resolve();
    });
    child.once('close', (code) =>
      reject(new Error(`mon sandbox serve ended (${code}) before serving:\n${out}${stderr}`)),
    );
  });
  return {
    trigger: (...args) => runMon(['sandbox', 'trigger', ...args], { env: { HOME: dir, MON_CONFIG_DIR: dir } }),
    stderr: () => stderr,
  };
}

async function listener(file: string, listen?: string): Promise<RunningListener> {
  const running = await listenProcess([
    '--output-file',
    file,
    '-o',
    'ndjson',
    '--include-tests',
    ...(listen ? ['--listen', listen] : []),
  ]);
  listeners.push(running);
  return running;
}

/** Waits until the listener printed an event that `test` accepts; returns it. */
async function printed(running: RunningListener, test: (event: Event) => boolean): Promise<Event> {
  const find = (text: string) => (lines(text) as Event[]).find(test);
  await running.stdout.until((text) => find(text) !== undefined);
  return find(running.stdout.text)!;
}

/** `… CLIENT-ID  Disk Space: OK -> Alert`, as `mon sandbox trigger alert` says what it forced. */
function forced(stdout: string): { clientId: string; plugin: string; from: string; to: string } {
  const match = /^\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}(\S+) {2}([^:]+): (\w+) -> (\w+)\n$/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return { clientId: match![1]!, plugin: match![2]!, from: match![3]!, to: match![4]! };
}

/** The ids in the file, in order, and that none is there twice. */
function fileIds(file: string): string[] {
  const ids = (lines(readFileSync(file, 'utf8')) as Event[]).map((event) => event._mon.id as string);
  expect(new Set(ids).size, `an event twice in ${file}: ${ids.join(' ')}`).toBe(ids.length);
  return ids;
}

describe('mon events listen beside a living sandbox', () => {
  it('each forced change, test delivery and connection_test arrives once, with the fields the reference names', async () => {
    const file = join(tempDir('mon-events-'), 'events.ndjson');
    const listening = await listener(file);
    const sandbox = await livingSandbox(listening.url);

    // A test delivery: svc_test at the top, an event_id starting svc_test_, shown as a test.
    const test = await sandbox.trigger('test');
    expect(test).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^test delivery svc_test_[0-9a-f]{16}\n.*: delivered \(HTTP 200\)\n$/),
    });
    const testId = /^test delivery (\S+)/.exec(test.stdout)![1]!;
    expect(await printed(listening, (event) => event.event_id === testId)).toMatchObject({
      svc_test: true,
      _mon: { kind: 'test', id: testId },
    });

    const probe = await sandbox.trigger('connection_test');
    expect(probe).toMatchObject({ code: 0, stdout: expect.stringMatching(/: delivered \(HTTP 200\)\n$/) });
    expect(await printed(listening, (event) => event._mon.kind === 'connection_test')).toMatchObject({
      event: 'connection_test',
      event_id: expect.stringMatching(/^svc_test_/),
    });

    // OK → Alert, then Warning, then OK on the same result: the words, the integers, the names.
    const alert = await sandbox.trigger('alert');
    expect(alert).toMatchObject({ code: 0, stderr: '' });
    const { clientId, plugin } = forced(alert.stdout);
    const steps = [
      { trigger: 'alert', severity: 'alert', previous: 'ok', code: 2, previousCode: 0, transition: 'OK → Alert' },
      {
        trigger: 'warning',
        severity: 'warning',
        previous: 'alert',
        code: 1,
        previousCode: 2,
        transition: 'Alert → Warning',
      },
      { trigger: 'ok', severity: 'ok', previous: 'warning', code: 0, previousCode: 1, transition: 'Warning → OK' },
    ];
    for (const step of steps) {
      if (step.trigger !== 'alert')
        expect(forced((await sandbox.trigger(step.trigger, clientId)).stdout)).toMatchObject({ clientId, plugin });
      const event = await printed(listening, (e) => e._mon.client_id === clientId && e.severity === step.severity);
      const computer = event.computer as Record<string, string | null>;
      expect(event).toMatchObject({
        event_id: expect.stringMatching(/^evt_/),
        severity: step.severity,
        previous_severity: step.previous,
        status_code: step.code,
        previous_status: step.previousCode,
        new_status: step.code,
        mute_type: null,
        is_hidden: false,
        computer: { client_id: clientId },
        plugin_result: { name: plugin },
        _mon: {
          kind: 'plugin',
          id: event.event_id,
          // The computer's name, not its client id (a UUID in the sandbox).
          computer: computer.custom_name ?? computer.computer_name,
          client_id: clientId,
          group: (event.group as { name: string }).name,
          plugin,
          severity: step.severity,
          previous_severity: step.previous,
          transition: step.transition,
          is_hidden: false,
        },
      });
    }

    // The simulated clock: every change of state it reports comes as one event.
    const tick = await sandbox.trigger('tick', '3d');
    expect(tick.code).toBe(0);
    const changes = Number(/; (\d+) changes? of state\n/.exec(tick.stdout)?.[1]);
    expect(changes).toBeGreaterThan(0);
    const simulated = (text: string) => (lines(text) as Event[]).filter((event) => event.cause === 'simulated').length;
    await listening.stdout.until((text) => simulated(text) >= changes);

    listening.stop('SIGTERM');
    expect(await listening.ended).toMatchObject({ code: 143 });
    listeners.splice(0);
    const shown = (lines(listening.stdout.text) as Event[]).map((event) => event._mon.id);
    expect(shown).toHaveLength(2 + steps.length + changes);
    expect(fileIds(file)).toEqual(shown);
    expect(listening.stderr.text).toContain(`mon: stopped: ${2 + steps.length + changes} events handled`);
    expect(sandbox.stderr()).not.toContain('given up');
  }, 90_000);

  it('a listener killed (SIGKILL) mid-stream and restarted on its port gets every event once: the sandbox sends again', async () => {
    const file = join(tempDir('mon-events-'), 'events.ndjson');
    const first = await listener(file);
    const address = new URL(first.url).host;
    const sandbox = await livingSandbox(first.url);
    const changesOf = (stdout: string) => Number(/; (\d+) changes? of state\n/.exec(stdout)?.[1]);
    // Killed once the first of two days' changes is in: those after it are in flight or not sent yet.
    const day = changesOf((await sandbox.trigger('tick', '2d')).stdout);
    if (day > 0) await first.stdout.until((text) => lines(text).length >= 1);
    first.stop('SIGKILL');
    await first.ended;
    // Changes made while nobody listens: each delivery fails and is sent again.
    const more = changesOf((await sandbox.trigger('tick', '3d')).stdout);
    expect(day + more).toBeGreaterThan(1);

    const second = await listener(file, address);
    await second.stdout.until(() => lines(readFileSync(file, 'utf8')).length >= day + more);
    const ids = fileIds(file);
    expect(ids).toHaveLength(day + more);
    // Printed at most once between the two; the file is the record: an event on disk when the
    // first was killed, before it printed it, is a duplicate to the second, answered, not shown.
    const shown = [...lines(first.stdout.text), ...lines(second.stdout.text)].map(
      (event) => (event as Event)._mon.id as string,
    );
    expect(new Set(shown).size).toBe(shown.length);
    for (const id of shown) expect(ids).toContain(id);
    expect(sandbox.stderr()).not.toContain('given up');
  }, 90_000);
});
