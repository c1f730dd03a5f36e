import { spawn } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { hasProgram } from '../helpers/programs.js';
import { MON_BIN, tempConfigDir, tempDir } from '../helpers/run-mon.js';
import { api } from '../helpers/sandbox-http.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

/**
 * #12 items 1–3 and 5: wherever a command names a computer it takes the client id or the c_
 * uid; a group, manufacturer or product its uid, slug or exact name. Unknown is exit 4,
 * ambiguous exit 2, and a lookup is a request like any other (--verbose, --dry-run).
 */
describe('computers, groups, manufacturers and products by any of their names', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let computers: Item[];
  let groups: Item[];
  let computer: Item;
  let acme: Item;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => Date.parse('2025-06-01T12:00:00Z') });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    computers = (await api(sandbox, '/v2.5/computers?per_page=100')).body as Item[];
    groups = (await api(sandbox, '/v2.5/groups')).body as Item[];
    computer = computers[0]!;
    acme = groups.find((g) => g.slug === 'acme-design')!;
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it.runIf(hasProgram('bash'))(
    "the README's loop over missing computers works as printed: client ids from the list name the computers of new notes",
    async () => {
      const bin = tempDir('mon-bin-');
      symlinkSync(MON_BIN, join(bin, 'mon'));
      const script = `mon computers list --status missing --all -o tsv --no-header --fields client_id |
  while read -r id; do mon notes create --computer "$id" --body "Checked by the night run"; done`;
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn('bash', ['-c', `set -o pipefail; ${script}`], {
          env: {
            PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
            HOME: tempConfigDir(),
            MON_CONFIG_DIR: tempConfigDir(),
            ...env,
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(result.stderr).not.toContain('mon:');
      expect(result.code).toBe(0);
      const missing = (await api(sandbox, '/v2.5/computers?status=missing&per_page=100')).body as Item[];
      expect(missing.length).toBeGreaterThan(1);
      const notes = (await api(sandbox, '/v2.5/notes?per_page=100')).body as Item[];
      const checked = notes.filter((n) => n.body === 'Checked by the night run').map((n) => n.computer);
      expect(checked.sort()).toEqual(missing.map((c) => c.uid).sort());
    },
  );
  it('`notes create --computer <client id>` looks up the uid with one GET, shown by --verbose', async () => {
    const result = await runMain(
      ['notes', 'create', '--computer', String(computer.client_id), '--body', 'by client id', '--json', '-v'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ computer: computer.uid, group: null });
    expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v2.5/computers/${String(computer.client_id)}`,
      'POST /v2.5/notes',
    ]);
    expect(result.stderr).toMatch(
      new RegExp(`^GET \\S+/v2\\.5/computers/${String(computer.client_id)}\\?api_key=\\[REDACTED\\] 200`, 'm'),
    );
    expect(result.stderr).not.toContain(sandbox.apiKey);
  });

  it('`--dry-run` shows the lookup as the request that would be sent, and sends nothing', async () => {
    const result = await runMain(
      ['notes', 'create', '--computer', String(computer.client_id), '--body', 'x', '--dry-run'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`GET ${sandbox.url}/v2.5/computers/${String(computer.client_id)}?api_key=[REDACTED]\n`);
    expect(result.stderr).toBe(
      `dry run: nothing was sent (the request that would look up --computer '${String(computer.client_id)}'; what follows depends on its answer)\n`,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('`--dry-run` shows the first lookup of a uid, a group name and a group slug: a list page, or one GET', async () => {
    const dry = async (args: string[]) => {
      const result = await runMain([...args, '--dry-run'], { env });
      expect(result.code).toBe(0);
      return { request: result.stdout.trimEnd(), notice: result.stderr.trimEnd() };
    };
    const uid = String(computer.uid);
    expect(await dry(['computers', 'get', uid])).toEqual({
      request: `GET ${sandbox.url}/v2.5/computers?page=1&per_page=100&api_key=[REDACTED]`,
      notice: `dry run: nothing was sent (the request that would look up <client-id> '${uid}'; what follows depends on its answer)`,
    });
    expect((await dry(['computers', 'list', '--group', 'Acme Design'])).request).toBe(
      `GET ${sandbox.url}/v2.5/groups?page=1&per_page=100&api_key=[REDACTED]`,
    );
    expect((await dry(['computers', 'list', '--group', 'acme-design'])).request).toBe(
      `GET ${sandbox.url}/v2.5/groups/acme-design?api_key=[REDACTED]`,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('`computers get <c_ uid>` and `plugin list <c_ uid>` find the client id; the table shows the uid', async () => {
    const uid = String(computer.uid);
    const got = await runMain(['computers', 'get', uid], { env });
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^UID\\s+${uid}$`, 'm'));
    expect(got.stdout).toMatch(new RegExp(`^CLIENT ID\\s+${String(computer.client_id)}$`, 'm'));
    expect(sandbox.requests.at(-1)!.path).toBe(`/v2.5/computers/${String(computer.client_id)}`);
    const byUid = await runMain(['plugin', 'list', uid, '--json', '--include-hidden'], { env });
    const byClientId = await runMain(['plugin', 'list', String(computer.client_id), '--json', '--include-hidden'], {
      env,
    });
    expect(byUid.code).toBe(0);
    expect(JSON.parse(byUid.stdout)).toEqual(JSON.parse(byClientId.stdout));
  });

  it('`--fields uid` is a column of computers list', async () => {
    const result = await runMain(['computers', 'list', '--limit', '2', '--fields', 'uid,client_id', '-o', 'tsv'], {
      env,
    });
    expect(result.stdout).toBe(
      `uid\tclient_id\n${computers
        .slice(0, 2)
        .map((c) => `${String(c.uid)}\t${String(c.client_id)}`)
        .join('\n')}\n`,
    );
  });

  it('an unknown computer is exit 4, naming what was looked for and how to list them', async () => {
    const byUid = await runMain(['computers', 'get', 'c_nosuch'], { env });
    expect(byUid).toMatchObject({ code: 4, stdout: '' });
    expect(byUid.stderr).toBe(
      "mon: <client-id>: no computer with uid 'c_nosuch' — list them with `mon computers list --fields client_id,uid,name`\n",
    );
    const byId = await runMain(['notes', 'list', '--computer', 'NO-SUCH-CLIENT'], { env });
    expect(byId).toMatchObject({ code: 4, stdout: '' });
    expect(byId.stderr).toBe(
      "mon: --computer: no computer with client id 'NO-SUCH-CLIENT' — list them with `mon computers list --fields client_id,uid,name`\n",
    );
  });

  it('`computers list --group` takes a slug or an exact name in any case; an unknown group is exit 4, not "No results."', async () => {
    const expected = (await api(sandbox, `/v2.5/computers?group_id=${String(acme.uid)}&per_page=100`)).body as Item[];
    for (const given of ['acme-design', 'ACME design', String(acme.uid)]) {
      const result = await runMain(['computers', 'list', '--group', given, '--per-page', '100', '--json'], { env });
      expect(result.code).toBe(0);
      expect((JSON.parse(result.stdout) as Item[]).map((c) => c.uid)).toEqual(expected.map((c) => c.uid));
    }
    const typo = await runMain(['computers', 'list', '--group', 'acme'], { env });
    expect(typo).toMatchObject({ code: 4, stdout: '' });
    expect(typo.stderr).toBe(
      "mon: --group: no group 'acme' (looked up by uid, slug and name) — list them with `mon groups list`\n",
    );
    const unknownUid = await runMain(['computers', 'list', '--group', 'g_nosuch'], { env });
    expect(unknownUid).toMatchObject({ code: 4, stdout: '' });
    expect(unknownUid.stderr).toContain("no group with uid 'g_nosuch'");
  });

  it('`expirations create` takes names and slugs for the manufacturer, product and group', async () => {
    const manufacturers = (await api(sandbox, '/v2.5/expiration_manufacturers')).body as Item[];
    const products = (await api(sandbox, '/v2.5/expiration_products')).body as Item[];
    const apple = manufacturers.find((m) => m.slug === 'apple')!;
    const care = products.find((p) => p.name === 'AppleCare+ for Mac')!;
    const result = await runMain(
      [
        'expirations',
        'create',
        '--license-key',
        'C02-NAMES',
        '--expires-at',
        '2027-01-15',
        '--manufacturer',
        'apple',
        '--product',
        'applecare+ for mac',
        '--group',
        'Acme Design',
        '--json',
      ],
      { env },
    );
    expect(result.stderr).toMatch(/^Expiration e_\S+ created\.\n$/);
    expect(JSON.parse(result.stdout)).toMatchObject({
      expiration_manufacturer: apple.uid,
      expiration_product: care.uid,
      group: acme.uid,
      computer: null,
    });
    const unknown = await runMain(['expirations', 'list', '--product', 'applecare'], { env });
    expect(unknown).toMatchObject({ code: 4, stdout: '' });
    expect(unknown.stderr).toBe(
      "mon: --product: no expiration product 'applecare' (looked up by uid, slug and name) — list them with `mon products list`\n",
    );
  });

  it('`manufacturers get` and `groups get` take a name', async () => {
    const manufacturer = await runMain(
      ['manufacturers', 'get', 'APPLE', '--fields', 'slug', '-o', 'tsv', '--no-header'],
      { env },
    );
    expect(manufacturer).toMatchObject({ code: 0, stdout: 'apple\n' });
    const group = await runMain(['groups', 'get', 'acme design', '--fields', 'uid', '-o', 'tsv', '--no-header'], {
      env,
    });
    expect(group).toMatchObject({ code: 0, stdout: `${String(acme.uid)}\n` });
  });

  it('`notes update` moves a note to another group, or to a computer by its client id', async () => {
    const notes = (await api(sandbox, '/v2.5/notes?per_page=100')).body as Item[];
    const note = notes.find((n) => n.computer)!;
    const toGroup = await runMain(['notes', 'update', String(note.uid), '--group', 'acme-design', '--json'], { env });
    expect(toGroup.code).toBe(0);
    expect(JSON.parse(toGroup.stdout)).toMatchObject({ uid: note.uid, group: acme.uid, computer: null });
    expect(sandbox.requests.at(-1)!.form).toEqual({ 'note[group_id]': acme.uid, api_key: sandbox.apiKey });
    const other = computers[1]!;
    const toComputer = await runMain(
      ['notes', 'update', String(note.uid), '--computer', String(other.client_id), '--json'],
      { env },
    );
    expect(toComputer.code).toBe(0);
    expect(JSON.parse(toComputer.stdout)).toMatchObject({ uid: note.uid, computer: other.uid, group: null });
    expect(((await api(sandbox, `/v2.5/notes/${String(note.uid)}`)).body as Item).computer).toBe(other.uid);
  });

  it('a name that several groups share (in different case) is exit 2, listing the candidates', async () => {
    const made = await fetch(`${sandbox.url}/v2.5/groups/find_or_create`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'group[name]': 'ACME DESIGN', api_key: sandbox.apiKey }),
    });
    const twin = (await made.json()) as Item;
    expect(twin.uid).not.toBe(acme.uid);
    sandbox.requests.length = 0;
    const result = await runMain(['notes', 'create', '--group', 'Acme design', '--body', 'x'], { env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `mon: --group: 'Acme design' names 2 groups: ${String(acme.uid)} (acme-design, "Acme Design"), ${String(twin.uid)} (${String(twin.slug)}, "ACME DESIGN") — give the uid or slug of the one you mean\n`,
    );
    expect(sandbox.requests.every((r) => r.method === 'GET')).toBe(true);

    // Written exactly as one of them is, it names that one: the exact name is the way to it.
    for (const [name, group] of [
      ['ACME DESIGN', twin],
      ['Acme Design', acme],
    ] as const) {
      const exact = await runMain(['groups', 'get', name, '--json'], { env });
      expect(exact.code).toBe(0);
      expect(JSON.parse(exact.stdout)).toMatchObject({ uid: group.uid });
    }
  });
});
