import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetSandbox, serveForeground } from '../../src/sandbox/cli.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { journalOf } from '../../src/sandbox/journal.js';
import { readState } from '../../src/sandbox/store.js';
import { Api, NOW, start } from './helpers.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mon-sandbox-'));
  file = join(dir, 'state', 'sandbox.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('stateFile', () => {
  it('seeds and saves on first start, keeps changes across a restart', async () => {
    const first = await start({ stateFile: file });
    const group = (await first.api.get('/v2.5/groups')).body[0];
    const note = await first.api.send('POST', '/v2.5/notes', {
      'note[group_id]': group.uid,
      'note[body]': 'survives restarts',
    });
    expect(note.status).toBe(200);
    const renamed = await first.api.send('PUT', `/v2.5/groups/${group.uid}`, { 'group[name]': 'Persisted Name' });
    expect(renamed.status).toBe(200);
    await first.sandbox.close();

    expect(JSON.parse(await readFile(file, 'utf8')).format).toBe('mon-sandbox-state');
    expect(readState(file)!.notes.some((n: { uid: string }) => n.uid === note.body.uid)).toBe(true);

    const second = await start({ stateFile: file });
    try {
      expect((await second.api.get(`/v2.5/notes/${note.body.uid}`)).body.body).toBe('survives restarts');
      expect((await second.api.get(`/v2.5/groups/${group.uid}`)).body.name).toBe('Persisted Name');
      expect((await second.api.get('/v2.5/groups/persisted-name')).body.uid).toBe(group.uid);
    } finally {
      await second.sandbox.close();
    }
  });

  it('loads the saved data instead of re-seeding, report times moved to the new start (time moves)', async () => {
    const first = await start({ stateFile: file });
    const before = (await first.api.get('/v2.5/computers', { 'expand[]': 'plugin_results' })).body;
    const missingBefore = (await first.api.get('/v2.5/computers', { status: 'missing' })).body.length;
    await first.sandbox.close();
    const later = await startSandbox({ stateFile: file, now: () => NOW + 3 * 86_400_000 });
    try {
      const api = new Api(later);
      const after = (await api.get('/v2.5/computers', { 'expand[]': 'plugin_results' })).body;
      type C = {
        uid: string;
        last_report: number;
        last_update: number;
        created_at: number;
        plugin_results: { last_run: number }[];
      };
      expect(
        after.map((c: C) => [
          c.uid,
          c.last_report - 3 * 86_400,
          c.last_update - 3 * 86_400,
          c.created_at,
          c.plugin_results.map((p) => p.last_run - 3 * 86_400),
        ]),
      ).toEqual(
        before.map((c: C) => [
          c.uid,
          c.last_report,
          c.last_update,
          c.created_at,
          c.plugin_results.map((p) => p.last_run),
        ]),
      );
      // so "missing" means the same on any day the sandbox starts
      expect((await api.get('/v2.5/computers', { status: 'missing' })).body.length).toBe(missingBefore);
    } finally {
      await later.close();
    }
  });

  it("two sandboxes on one state file see each other's writes and never reuse a uid", async () => {
    const [a, b] = [await start({ stateFile: file }), await start({ stateFile: file })];
    try {
      const group = (await a.api.get('/v2.5/groups')).body[0].uid;
      const fromA = await a.api.send('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': 'written by A' });
      expect((await b.api.get(`/v2.5/notes/${fromA.body.uid}`)).body.body).toBe('written by A');
      const fromB = await b.api.send('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': 'written by B' });
      expect(fromB.body.uid).not.toBe(fromA.body.uid);
      expect((await a.api.get(`/v2.5/notes/${fromB.body.uid}`)).body.body).toBe('written by B');
      // writes at the same time from both: none is lost
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).api.send('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': `burst ${i}` }),
        ),
      );
      expect(new Set(burst.map((r) => r.body.uid)).size).toBe(20);
      const uids = new Set(readState(file)!.notes.map((n) => n.uid));
      for (const uid of [fromA.body.uid, fromB.body.uid, ...burst.map((r) => r.body.uid)])
        expect(uids.has(uid)).toBe(true);
      expect(await readdir(join(dir, 'state'))).toEqual(['sandbox.json', 'sandbox.json.journal']);
    } finally {
      await a.sandbox.close();
      await b.sandbox.close();
    }
  });

  it('breaks the lock of a sandbox that died holding it (a lock untouched for 5 s: a change holds it for milliseconds)', async () => {
    const a = await start({ stateFile: file });
    try {
      await writeFile(`${file}.lock`, '2147483646');
      const then = (Date.now() - 6_000) / 1000;
      await utimes(`${file}.lock`, then, then);
      const group = (await a.api.get('/v2.5/groups')).body[0].uid;
      const res = await a.api.send('POST', '/v2.5/notes', { 'note[group_id]': group, 'note[body]': 'after a crash' });
      expect(res.status).toBe(200);
    } finally {
      await a.sandbox.close();
    }
  });

  it('writes atomically: no temp file is left beside the state file', async () => {
    const { sandbox, api } = await start({ stateFile: file });
    try {
      const g = (await api.get('/v2.5/groups')).body[0];
      for (let i = 0; i < 5; i++) {
        await api.send('POST', '/v2.5/notes', { 'note[group_id]': g.uid, 'note[body]': `note ${i}` });
      }
      expect(await readdir(join(dir, 'state'))).toEqual(['sandbox.json', 'sandbox.json.journal']);
      expect(readState(file)!.notes.filter((n: { body: string }) => n.body.startsWith('note ')).length).toBe(5);
    } finally {
      await sandbox.close();
    }
  });

  it('removes a temp file left by a process killed mid-write on its next snapshot, and leaves a fresh one alone', async () => {
    const { sandbox, api } = await start({ stateFile: file, compactJournalBytes: 1 });
    try {
      const stale = join(dir, 'state', 'sandbox.json.4242.deadbeef.tmp');
      const fresh = join(dir, 'state', 'sandbox.json.4343.feedbeef.tmp');
      await writeFile(stale, '{}');
      await writeFile(fresh, '{}');
      const old = (Date.now() - 60_000) / 1000;
      await utimes(stale, old, old);
      const g = (await api.get('/v2.5/groups')).body[0];
      await api.send('POST', '/v2.5/notes', { 'note[group_id]': g.uid, 'note[body]': 'after a crash' });
      // The write went past the journal's size: folded into a new snapshot, the journal emptied.
      expect((await readdir(join(dir, 'state'))).sort()).toEqual(['sandbox.json', 'sandbox.json.4343.feedbeef.tmp']);
    } finally {
      await sandbox.close();
    }
  });

  it('does not write when nothing changes', async () => {
    const { sandbox, api } = await start({ stateFile: file });
    try {
      // every snapshot renames a new file into place, so the inode tells whether one happened;
      // every change is a line of the journal
      const before = (await stat(file)).ino;
      const journalSize = async () => (await stat(journalOf(file)).catch(() => ({ size: 0 }))).size;
      await api.get('/v2.5/computers');
      await api.send('PUT', '/v2.5/groups/g_nope', { 'group[name]': 'x' });
      await api.send('POST', '/v2.5/notes', { 'note[body]': 'no owner' });
      expect((await stat(file)).ino).toBe(before);
      expect(await journalSize()).toBe(0);
      const g = (await api.get('/v2.5/groups')).body[0];
      await api.send('PUT', `/v2.5/groups/${g.uid}`, { 'group[name]': g.name, 'group[description]': 'changed' });
      // A write costs what it changed: one journal line, the snapshot left as it was.
      expect((await stat(file)).ino).toBe(before);
      const line = JSON.parse((await readFile(journalOf(file), 'utf8')).trimEnd());
      expect(line).toMatchObject({ saved: [{ uid: g.uid, description: 'changed' }], removed: [] });
    } finally {
      await sandbox.close();
    }
  });

  it.each([
    ['not JSON', '{"format": "mon-sandbox-state", '],
    ['another format', '{"hello": "world"}'],
    ['a wrong version', '{"format": "mon-sandbox-state", "version": 99}'],
    ['an array', '[]'],
  ])('refuses a corrupt file (%s) with a message naming the file and the reset command', async (_why, content) => {
    await rm(join(dir, 'state'), { recursive: true, force: true });
    await writeFile(join(dir, 'bad.json'), content);
    const bad = join(dir, 'bad.json');
    await expect(startSandbox({ stateFile: bad })).rejects.toThrow(bad);
    await expect(startSandbox({ stateFile: bad })).rejects.toThrow('mon sandbox reset');
    // the corrupt file is left alone for the user to inspect
    expect(await readFile(bad, 'utf8')).toBe(content);
  });

  it('re-seeds when an explicit seed or computer count differs from the saved state, and says so', async () => {
    const first = await start({ stateFile: file, seed: 1, computers: 40 });
    await first.sandbox.close();

    const notices: string[] = [];
    const same = await start({ stateFile: file, seed: 1, onNotice: (m) => notices.push(m) });
    expect((await same.api.get('/v2.5/computers')).headers.get('x-total')).toBe('40');
    await same.sandbox.close();
    expect(notices).toEqual([]);

    const bigger = await start({ stateFile: file, computers: 60, onNotice: (m) => notices.push(m) });
    expect((await bigger.api.get('/v2.5/computers')).headers.get('x-total')).toBe('60');
    await bigger.sandbox.close();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/re-seeding/);
    expect(JSON.parse(await readFile(file, 'utf8')).computerCount).toBe(60);

    // no explicit options: the saved state is used as is
    const plain = await start({ stateFile: file, onNotice: (m) => notices.push(m) });
    expect((await plain.api.get('/v2.5/computers')).headers.get('x-total')).toBe('60');
    await plain.sandbox.close();
    expect(notices).toHaveLength(1);
  });
});

describe('sandboxes on one state file', () => {
  // Writes of one size in quick turns by three: the inode a write frees is taken by the next
  // temporary file, and the kernel's file times move in steps, so the file the third writes can
  // look like the one the first saw last. The token save() puts at its head tells them apart.
  it('see every write of the others, however quick and alike the writes are', async () => {
    const [a, b, c] = [
      await start({ stateFile: file }),
      await start({ stateFile: file }),
      await start({ stateFile: file }),
    ];
    try {
      const group = (await a.api.get('/v2.5/groups')).body[0].uid as string;
      const made: string[] = [];
      for (let round = 0; round < 30; round++) {
        for (const side of [a, b, c]) {
          const note = await side.api.send('POST', '/v2.5/notes', {
            'note[group_id]': group,
            'note[body]': `n${String(round).padStart(2, '0')}`,
          });
          expect(note.status).toBe(200);
          made.push(note.body.uid as string);
        }
      }
      expect(new Set(made).size).toBe(made.length);
      for (const uid of made) expect((await a.api.get(`/v2.5/notes/${uid}`)).status).toBe(200);
    } finally {
      for (const side of [a, b, c]) await side.sandbox.close();
    }
  });
});

describe('the journal', () => {
  it('is folded into a new snapshot once it has grown: every write kept across a restart', async () => {
    const first = await start({ stateFile: file, compactJournalBytes: 4096 });
    const group = (await first.api.get('/v2.5/groups')).body[0].uid as string;
    const made: string[] = [];
    for (let i = 0; i < 12; i++)
      made.push(
        (
          await first.api.send('POST', '/v2.5/notes', {
            'note[group_id]': group,
            'note[body]': `n${i} ${'x'.repeat(400)}`,
          })
        ).body.uid,
      );
    const removed = made.pop()!;
    expect((await first.api.send('DELETE', `/v2.5/notes/${removed}`)).status).toBe(204);
    await first.sandbox.close();
    // Some writes are in the snapshot now, the rest in a journal shorter than the bound.
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as { notes: { uid: string }[] };
    expect(snapshot.notes.filter((n) => made.includes(n.uid)).length).toBeGreaterThan(0);
    expect((await stat(journalOf(file))).size).toBeLessThanOrEqual(4096 + 1024);
    const second = await start({ stateFile: file });
    try {
      for (const uid of made) expect((await second.api.get(`/v2.5/notes/${uid}`)).status).toBe(200);
      expect((await second.api.get(`/v2.5/notes/${removed}`)).status).toBe(404);
    } finally {
      await second.sandbox.close();
    }
  });

  it('a torn last line (a writer killed mid-append) is cut off by the next write; lines of an older snapshot are skipped', async () => {
    const first = await start({ stateFile: file });
    const group = (await first.api.get('/v2.5/groups')).body[0];
    const kept = (await first.api.send('POST', '/v2.5/notes', { 'note[group_id]': group.uid, 'note[body]': 'kept' }))
      .body.uid as string;
    await first.sandbox.close();
    const stale = JSON.stringify({
      base: '0123456789abcdef',
      anchor: NOW,
      rng: 1,
      saved: [{ ...group, name: 'From an old snapshot' }],
      removed: [],
    });
    await writeFile(journalOf(file), `${await readFile(journalOf(file), 'utf8')}${stale}\n{"base":"torn`);

    const second = await start({ stateFile: file });
    try {
      expect((await second.api.get(`/v2.5/groups/${group.uid}`)).body.name).toBe(group.name);
      const after = (
        await second.api.send('POST', '/v2.5/notes', { 'note[group_id]': group.uid, 'note[body]': 'after the tear' })
      ).body.uid as string;
      const lines = (await readFile(journalOf(file), 'utf8')).split('\n');
      expect(lines.at(-1)).toBe('');
      expect(lines.every((line) => line === '' || JSON.parse(line))).toBe(true);
      const notes = new Set(readState(file)!.notes.map((n) => n.uid));
      expect([notes.has(kept), notes.has(after)]).toEqual([true, true]);
    } finally {
      await second.sandbox.close();
    }
  });
});

describe('resetSandbox', () => {
  it('deletes the state file so the next start re-seeds, and reports whether one existed', async () => {
    const first = await start({ stateFile: file });
    const g = (await first.api.get('/v2.5/groups')).body[0];
    await first.api.send('PUT', `/v2.5/groups/${g.uid}`, { 'group[name]': 'Changed' });
    await first.sandbox.close();
    await writeFile(join(dir, 'state', 'sandbox.json.123.abcd.tmp'), 'leftover');

    expect(await resetSandbox(file)).toBe(true);
    expect(await readdir(join(dir, 'state'))).toEqual([]);
    expect(await resetSandbox(file)).toBe(false);
    expect(await resetSandbox(join(dir, 'no', 'such', 'dir.json'))).toBe(false);

    const again = await start({ stateFile: file });
    try {
      expect((await again.api.get(`/v2.5/groups/${g.uid}`)).body.name).toBe(g.name);
    } finally {
      await again.sandbox.close();
    }
  });
});

describe('resetSandbox while a sandbox serves the data', () => {
  it('takes effect at once: the running sandbox serves the demo data again and its next write does not bring the old data back', async () => {
    const running = await start({ stateFile: file });
    try {
      const g = (await running.api.get('/v2.5/groups')).body[0];
      expect((await running.api.send('PUT', `/v2.5/groups/${g.uid}`, { 'group[name]': 'Changed' })).status).toBe(200);
      const note = await running.api.send('POST', '/v2.5/notes', {
        'note[group_id]': g.uid,
        'note[body]': 'before the reset',
      });
      expect(note.status).toBe(200);

      expect(await resetSandbox(file)).toBe(true);
      expect((await running.api.get(`/v2.5/groups/${g.uid}`)).body.name).toBe(g.name);
      expect((await running.api.get(`/v2.5/notes/${note.body.uid}`)).status).toBe(404);
      // the next write lands on the fresh data, and the file holds the fresh data plus that write
      const other = (await running.api.get('/v2.5/groups')).body[1];
      expect(
        (await running.api.send('PUT', `/v2.5/groups/${other.uid}`, { 'group[name]': 'After the reset' })).status,
      ).toBe(200);
      const saved = readState(file)!;
      expect(saved.groups.find((x: { uid: string }) => x.uid === g.uid)!.name).toBe(g.name);
      expect(saved.notes.some((n: { uid: string }) => n.uid === note.body.uid)).toBe(false);
      expect(saved.groups.find((x: { uid: string }) => x.uid === other.uid)!.name).toBe('After the reset');
    } finally {
      await running.sandbox.close();
    }
  });
});

class Capture extends Writable {
  text = '';
  private waiting: { part: string; resolve: () => void }[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    this.waiting = this.waiting.filter((w) => !(this.text.includes(w.part) && (w.resolve(), true)));
    done();
  }
  /** Resolves once `part` has been written. */
  shows(part: string): Promise<void> {
    return this.text.includes(part)
      ? Promise.resolve()
      : new Promise((resolve) => this.waiting.push({ part, resolve }));
  }
}

describe('serveForeground', () => {
  it('prints the URL, the key and export lines, serves until aborted, then closes', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const controller = new AbortController();
    const running = serveForeground({
      stateFile: file,
      identity: {},
      io: { stdout, stderr },
      signal: controller.signal,
    });
    await stdout.shows('export MON_API_KEY=sbx_live_demo_4f6c2a9e1b7d\n');

    const lines = stdout.text.trim().split('\n');
    const exports = lines.filter((l) => !l.startsWith('#'));
    expect(exports).toHaveLength(2);
    const url = /^export MON_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)$/.exec(exports[0] ?? '')?.[1];
    expect(url).toBeDefined();
    expect(exports[1]).toBe('export MON_API_KEY=sbx_live_demo_4f6c2a9e1b7d');
    // The banner shows the base URL as it is pasted: a URL ending in /v2.5 is what users copied.
    expect(lines[0]).toContain(`base URL ${url} `);
    expect(stdout.text).not.toContain(`${url}/v2.5`);
    expect(stderr.text).toBe('');

    const res = await fetch(`${url}/v2.5/groups?api_key=sbx_live_demo_4f6c2a9e1b7d`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();

    controller.abort();
    await running;
    await expect(fetch(`${url}/v2.5/groups`)).rejects.toThrow();
  });
});
