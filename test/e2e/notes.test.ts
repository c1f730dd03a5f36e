import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { api } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';

type Item = Record<string, unknown>;

const BODY_MAX = 16_777_215;

describe('notes against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let all: Item[];
  let computer: string;
  let group: string;
  const dir = mkdtempSync(join(tmpdir(), 'mon-notes-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => Date.parse('2025-06-01T12:00:00Z') });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    all = (await api(sandbox, '/v2.5/notes?include_private=true&per_page=100')).body as Item[];
    computer = all.find((n) => n.computer)!.computer as string;
    group = all.find((n) => n.group)!.group as string;
    expect(all.some((n) => n.private === true)).toBe(true);
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  });

  it('`list --computer c_ --include-private --json` sends computer and include_private=true', async () => {
    const result = await runMain(['notes', 'list', '--computer', computer, '--include-private', '--json'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(all.filter((n) => n.computer === computer));
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2.5/notes', status: 200 });
    expect(sandbox.requests[0]!.query).toEqual({
      computer,
      include_private: 'true',
      page: '1',
      api_key: sandbox.apiKey,
    });
  });

  it('`list --group g_` sends group; private notes stay out without --include-private', async () => {
    const result = await runMain(['notes', 'list', '--group', group, '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(all.filter((n) => n.group === group && n.private !== true));
    // A filter is read first, so that a group that does not exist is not shown as one without notes.
    expect(sandbox.requests.map((r) => r.path)).toEqual([`/v2.5/groups/${group}`, '/v2.5/notes']);
    expect(sandbox.requests[1]!.query).toEqual({ group, page: '1', api_key: sandbox.apiKey });
  });

  it('`list` prints a table of uid, owner (by name), private, created and the first line of the body', async () => {
    sandbox.requests.length = 0;
    const result = await runMain(['notes', 'list', '--include-private', '--limit', '4'], { env });
    expect(result.code).toBe(0);
    expect(sandbox.requests[0]!.query['expand[]']).toEqual(['computer', 'group']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+OWNER\s+PRIVATE\s+CREATED\s+BODY$/);
    expect(lines).toHaveLength(5);
    const named = (await api(sandbox, '/v2.5/notes?include_private=true&per_page=4&expand[]=computer&expand[]=group'))
      .body as Item[];
    named.forEach((note, i) => {
      const [uid, owner, priv, created, body] = lines[i + 1]!.split(/\s{2,}/);
      const ref = (note.computer ?? note.group) as Item;
      expect([uid, owner, priv, body]).toEqual([
        note.uid,
        ref.name ?? ref.custom_name ?? ref.computer_name,
        note.private ? 'yes' : 'no',
        String(note.body).split('\n')[0]!.trim(),
      ]);
      expect(created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    });
  });

  it('`get <uid>` prints the note as received', async () => {
    const uid = all[0]!.uid as string;
    const result = await runMain(['notes', 'get', uid, '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(all[0]);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: `/v2.5/notes/${uid}`, status: 200 });
  });

  it('`create --computer --body --private --include-in-email` POSTs note[...] with those flags', async () => {
    const result = await runMain(
      [
        'notes',
        'create',
        '--computer',
        computer,
        '--body',
        'Battery replaced',
        '--private',
        '--include-in-email',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const note = JSON.parse(result.stdout) as Item;
    expect(note).toMatchObject({
      computer,
      group: null,
      body: 'Battery replaced',
      private: true,
      include_in_email: true,
      include_in_report: false,
    });
    expect(result.stderr).toBe(`Note ${String(note.uid)} created.\n`);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'POST', path: '/v2.5/notes', query: {}, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({
      'note[computer_id]': computer,
      'note[body]': 'Battery replaced',
      'note[private]': 'true',
      'note[include_in_email]': 'true',
      api_key: sandbox.apiKey,
    });
  });

  it('`create --group --body-file PATH` sends the file as it is, newlines included', async () => {
    const body = 'Handover\n\n- rack 2 keys at reception\n- café wifi: ünïcode ✓\n';
    const result = await runMain(
      ['notes', 'create', '--group', group, '--body-file', file('handover.md', body), '--include-in-report', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ group, computer: null, body, include_in_report: true });
    expect(sandbox.requests[0]!.form).toEqual({
      'note[group_id]': group,
      'note[body]': body,
      'note[include_in_report]': 'true',
      api_key: sandbox.apiKey,
    });
  });

  it('`create --body-file -` reads stdin', async () => {
    const result = await runMain(['notes', 'create', '--computer', computer, '--body-file', '-', '--json'], {
      env,
      input: 'from a pipe\n',
    });
    expect(result.code).toBe(0);
    expect(sandbox.requests[0]!.form).toEqual({
      'note[computer_id]': computer,
      'note[body]': 'from a pipe\n',
      api_key: sandbox.apiKey,
    });
  });

  it('`update --no-private --include-in-report --no-include-in-email` PUTs only those, as booleans', async () => {
    const uid = all.find((n) => n.private === true)!.uid as string;
    const result = await runMain(
      ['notes', 'update', uid, '--no-private', '--include-in-report', '--no-include-in-email', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Note ${uid} updated.\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({
      uid,
      private: false,
      include_in_email: false,
      include_in_report: true,
    });
    expect(sandbox.requests[0]).toMatchObject({ method: 'PUT', path: `/v2.5/notes/${uid}`, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({
      'note[private]': 'false',
      'note[include_in_email]': 'false',
      'note[include_in_report]': 'true',
      api_key: sandbox.apiKey,
    });
  });

  it('`update --body-file -` replaces the body from stdin', async () => {
    const uid = all[1]!.uid as string;
    const result = await runMain(['notes', 'update', uid, '--body-file', '-', '--json'], { env, input: 'new text' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uid, body: 'new text' });
    expect(sandbox.requests[0]!.form).toEqual({ 'note[body]': 'new text', api_key: sandbox.apiKey });
  });

  it('`delete` in a pipe without --yes is refused with exit 2 and deletes nothing', async () => {
    const uid = all[2]!.uid as string;
    const result = await runMain(['notes', 'delete', uid], { env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/refusing to delete without --yes/);
    expect(sandbox.requests).toEqual([]);
  });

  it('`delete --yes` sends DELETE, prints nothing on stdout and exits 0 on 204', async () => {
    const uid = all[2]!.uid as string;
    const result = await runMain(['notes', 'delete', uid, '--yes'], { env });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(sandbox.requests.map((r) => [r.method, r.path, r.status])).toEqual([['DELETE', `/v2.5/notes/${uid}`, 204]]);
    expect((await api(sandbox, `/v2.5/notes/${uid}`)).status).toBe(404);
  });

  it('`delete` on a terminal shows the owner and the first line before asking', async () => {
    const note = all[3]!;
    const { code, screen } = await onTerminal(['notes', 'delete', String(note.uid)], env, 'y\n');
    expect(code).toBe(0);
    const owner = note.computer ? `computer ${String(note.computer)}` : `group ${String(note.group)}`;
    expect(screen).toContain(
      `Delete note ${String(note.uid)} on ${owner} ("${String(note.body).split('\n')[0]!.trim().slice(0, 20)}`,
    );
    expect(sandbox.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'DELETE 204']);
  });

  it('a --body-file over 16777215 characters is refused before sending', async () => {
    const path = file('huge.txt', 'x'.repeat(BODY_MAX + 1));
    const result = await runMain(['notes', 'create', '--group', 'g_1', '--body-file', path], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--body-file: '${path}' holds ${BODY_MAX + 1} characters; a note body has at most ${BODY_MAX}`,
    );
    expect(sandbox.requests).toEqual([]);
  });

  // In-process through main(): the same parsing and checks as bin/mon, without a node start per case.
  it.each([
    ['create without an owner', ['notes', 'create', '--body', 'x'], 'give one of --computer or --group'],
    [
      'create with both owners',
      ['notes', 'create', '--computer', 'c_1', '--group', 'g_1', '--body', 'x'],
      'give only one of --computer and --group',
    ],
    ['create without a body', ['notes', 'create', '--computer', 'c_1'], 'give one of --body or --body-file'],
    [
      'create with --body and --body-file',
      ['notes', 'create', '--computer', 'c_1', '--body', 'x', '--body-file', '-'],
      'give only one of --body and --body-file',
    ],
    ['a blank --body', ['notes', 'create', '--computer', 'c_1', '--body', ' '], '--body: must not be empty'],
    [
      'a group uid for --computer',
      ['notes', 'create', '--computer', 'g_1', '--body', 'x'],
      "--computer: 'g_1' is a group uid, not a computer — give the computer's client id or c_ uid",
    ],
    [
      'a computer uid for --group',
      ['notes', 'create', '--group', 'c_1', '--body', 'x'],
      "--group: 'c_1' is a computer uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      'a computer id over 191',
      ['notes', 'create', '--computer', `c_${'x'.repeat(190)}`, '--body', 'x'],
      '--computer: at most 191 characters (got 192)',
    ],
    [
      'a missing --body-file',
      ['notes', 'create', '--computer', 'c_1', '--body-file', '/nonexistent/note.md'],
      "--body-file: cannot read '/nonexistent/note.md' (ENOENT)",
    ],
    [
      'a directory as --body-file',
      ['notes', 'create', '--computer', 'c_1', '--body-file', tmpdir()],
      `--body-file: cannot read '${tmpdir()}' (EISDIR)`,
    ],
    [
      'an empty stdin',
      ['notes', 'create', '--computer', 'c_1', '--body-file', '-'],
      '--body-file: stdin is empty; a note body must not be empty',
    ],
    [
      'list with both owners',
      ['notes', 'list', '--computer', 'c_1', '--group', 'g_1'],
      '--computer and --group cannot be used together',
    ],
    [
      'list with a note uid for --group',
      ['notes', 'list', '--group', 'n_1'],
      "--group: 'n_1' is a note uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      'update with both owners',
      ['notes', 'update', 'n_1', '--computer', 'c_1', '--group', 'g_1'],
      '--computer and --group cannot be used together',
    ],
    ['get with an expiration uid', ['notes', 'get', 'e_1'], "<uid>: 'e_1' is not a note uid (they start with n_)"],
    [
      'delete with a group uid',
      ['notes', 'delete', 'g_1', '--yes'],
      "<uid>: 'g_1' is not a note uid (they start with n_)",
    ],
    [
      'update with nothing to change',
      ['notes', 'update', 'n_1'],
      'nothing to update: give --body, --body-file, --computer, --group, --[no-]private, --[no-]include-in-email or --[no-]include-in-report',
    ],
    [
      'update with --body and --body-file',
      ['notes', 'update', 'n_1', '--body', 'x', '--body-file', '-'],
      '--body and --body-file cannot be used together',
    ],
    [
      'update with an empty file',
      ['notes', 'update', 'n_1', '--body-file', '/dev/null'],
      "--body-file: '/dev/null' is empty; a note body must not be empty",
    ],
  ] as const)('%s: exit 2, one line naming the option, no request', async (_, args, message) => {
    expectRefusedBeforeSending(await runMain(args, { env }), message, sandbox.requests);
  });
});
