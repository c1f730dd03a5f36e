import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-mon.js';
import { deliver, lines, listenProcess, pluginEvent, post } from './helpers.js';

/** Waits (checking every 10 ms) until `test` holds: for a file to be written, not for time to pass. */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const linesIn = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);

describe('mon events listen as a process', () => {
  it('every event exactly once in --output-file when the listener is killed (SIGKILL) mid-stream and restarted', async () => {
    const file = join(tempDir('mon-events-kill-'), 'events.ndjson');
    let listener = await listenProcess(['--output-file', file]);
    let url = listener.url;
    const TOTAL = 300;
    // Half with an event_id, half recognised by their body; some sent twice on purpose.
    const bodies = Array.from({ length: TOTAL }, (_, i) =>
      i % 2 === 0 ? pluginEvent(`k_${i}`) : pluginEvent(undefined, 'warning', 'ok', { sequence: i }),
    );
    let next = 0;
    const sender = async () => {
      while (next < TOTAL) {
        const body = bodies[next++]!;
        await deliver(() => url, body);
        if (next % 7 === 0) await deliver(() => url, body);
      }
    };
    const sending = Promise.all(Array.from({ length: 8 }, sender));
    for (const after of [60, 160]) {
      await until(() => linesIn(file) >= after);
      listener.child.kill('SIGKILL');
      expect((await listener.ended).signal).toBe('SIGKILL');
      listener = await listenProcess(['--output-file', file]);
      url = listener.url;
    }
    await sending;
    listener.stop('SIGTERM');
    expect((await listener.ended).code).toBe(143);
    const written = lines(readFileSync(file, 'utf8'));
    const ids = written.map((event) => (event._mon as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(TOTAL);
    const keys = written.map((event) => String(event.event_id ?? `s${event.sequence as number}`)).sort();
    expect(keys).toEqual(bodies.map((_, i) => (i % 2 === 0 ? `k_${i}` : `s${i}`)).sort());
  }, 120_000);

  it('SIGTERM stops taking deliveries, lets the --exec in flight finish, answers it, and exits 143', async () => {
    const dir = tempDir('mon-events-term-');
    const script = `cat > "${dir}/in"; while [ ! -e "${dir}/go" ]; do sleep 0.02; done`;
    const listener = await listenProcess(['--exec', script, '--output-file', join(dir, 'events.ndjson')]);
    const answer = post(listener.url, pluginEvent('t1'));
    await until(() => existsSync(join(dir, 'in')));
    listener.stop('SIGTERM');
    await listener.stderr.until((text) => text.includes('Stopping: no new deliveries; finishing the one in flight'));
    // No new delivery is taken once it is stopping.
    await expect(post(listener.url, pluginEvent('t2'))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    writeFileSync(join(dir, 'go'), '');
    expect(await answer).toEqual({ status: 200, text: 'ok\n' });
    const end = await listener.ended;
    expect(end.code).toBe(143);
    expect(listener.stderr.text).toMatch(/mon: stopped: 1 event handled\n$/);
    expect(lines(readFileSync(join(dir, 'events.ndjson'), 'utf8')).map((event) => event.event_id)).toEqual(['t1']);
  }, 60_000);
});
