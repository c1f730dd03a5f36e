import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';
import { api } from '../helpers/sandbox-http.js';

type Item = Record<string, unknown>;

/**
 * #12 items 4, 6, 7 and 8: tables after create and update read like lists; a list that stops
 * early says so; a table's columns are fields in every format; contradictory paging is refused.
 */
describe('lists, columns and paging against a sandbox of 312 computers', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let computers: Item[];
  let acme: Item;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, computers: 312, now: () => Date.parse('2025-06-01T12:00:00Z') });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    computers = (await api(sandbox, '/v2.5/computers?per_page=100')).body as Item[];
    acme = ((await api(sandbox, '/v2.5/groups')).body as Item[]).find((g) => g.slug === 'acme-design')!;
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  describe('item 6: no silent truncation', () => {
    it('one page of many: the data on stdout, one line on stderr saying how many of how many', async () => {
      const result = await runMain(['computers', 'list', '--fields', 'client_id', '-o', 'tsv', '--no-header'], { env });
      expect(result.code).toBe(0);
      expect(result.stdout.trimEnd().split('\n')).toHaveLength(50);
      expect(result.stdout).not.toContain('showing');
      expect(result.stderr).toBe('showing 50 of 312 — add --all for every page\n');
    });

    it('a later page names its records', async () => {
      const result = await runMain(['computers', 'list', '--page', '2', '--per-page', '100', '--json'], { env });
      expect(JSON.parse(result.stdout)).toHaveLength(100);
      expect(result.stderr).toBe('showing 101–200 of 312 — add --all for every page\n');
    });

    it('nothing with -q, with --all, with --limit, or on the last page', async () => {
      for (const args of [['-q'], ['--all'], ['--limit', '60'], ['--page', '4', '--per-page', '100']]) {
        const result = await runMain(['computers', 'list', '-o', 'ndjson', ...args], { env });
        expect(result.code).toBe(0);
        expect(result.stderr).toBe('');
      }
    });
  });

  describe('item 8: contradictory paging options', () => {
    it.each([
      [
        ['--all', '--page', '2'],
        '--all and --page cannot be used together — --all reads every page from the first; drop --page (or start later with --offset)',
      ],
      [
        ['--all', '--limit', '5'],
        '--all and --limit cannot be used together — --all prints every record, --limit at most n; keep one',
      ],
      [
        ['--page', '2', '--offset', '10'],
        '--page and --offset cannot be used together — both say where the list starts; keep one',
      ],
      [
        ['--count', '--limit', '5'],
        '--count and --limit cannot be used together — --count prints only the number of records; drop --limit',
      ],
    ])('%j: exit 2, one line with the reason, no request', async (args, message) => {
      const result = await runMain(['computers', 'list', ...args], { env });
      expect(result).toMatchObject({ code: 2, stdout: '', stderr: `mon: ${message}\n` });
      expect(sandbox.requests).toEqual([]);
    });
  });

  describe('item 7: a column the table shows is a field in every format', () => {
    it('`--fields client_id,name,flags -o json` keeps the computed name and flags', async () => {
      const result = await runMain(
        ['computers', 'list', '--limit', '3', '--fields', 'client_id,name,flags', '-o', 'json'],
        { env },
      );
      expect(result.code).toBe(0);
      const flags = (c: Item) =>
        (['missing', 'has_issue', 'hidden', 'pending_removal', 'rekey_requested'] as const).filter(
          (k) => c[k] === true,
        );
      expect(JSON.parse(result.stdout)).toEqual(
        computers.slice(0, 3).map((c) => ({
          client_id: c.client_id,
          name: c.custom_name || c.computer_name,
          flags: flags(c)
            .map(
              (k) =>
                ({
                  missing: 'missing',
                  has_issue: 'issue',
                  hidden: 'hidden',
                  pending_removal: 'removal',
                  rekey_requested: 'rekey',
                })[k],
            )
            .join(','),
        })),
      );
    });

    it('`--fields nme` suggests name (and every typo its key) instead of listing 90 keys; nothing is sent', async () => {
      const one = await runMain(['computers', 'list', '--fields', 'nme', '-o', 'json'], { env });
      expect(one).toMatchObject({
        code: 2,
        stdout: '',
        stderr: 'mon: --fields: unknown key nme — did you mean --fields name?\n',
      });
      const two = await runMain(['computers', 'list', '--fields', 'client_id,nme,flgs'], { env });
      expect(two.stderr).toBe('mon: --fields: unknown keys nme, flgs — did you mean --fields client_id,name,flags?\n');
      expect(sandbox.requests).toEqual([]);
    });

    it('ndjson, csv and tsv have them too', async () => {
      const ndjson = await runMain(['notes', 'list', '--limit', '1', '--fields', 'uid,excerpt', '-o', 'ndjson'], {
        env,
      });
      expect(Object.keys(JSON.parse(ndjson.stdout) as Item)).toEqual(['uid', 'excerpt']);
      const csv = await runMain(['computers', 'list', '--limit', '1', '--fields', 'name', '-o', 'csv', '--no-header'], {
        env,
      });
      expect(csv.stdout).toBe(`${String(computers[0]!.custom_name || computers[0]!.computer_name)}\n`);
    });
  });

  describe('item 4: after create and update, tables show names as lists do', () => {
    it('`notes create` and `notes update` show the owner by name', async () => {
      const created = await runMain(['notes', 'create', '--group', String(acme.uid), '--body', 'Named owner'], { env });
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^OWNER\s+Acme Design$/m);
      expect(created.stdout).not.toContain(String(acme.uid));
      const uid = /^UID\s+(n_\S+)$/m.exec(created.stdout)![1]!;
      const computer = computers[0]!;
      const updated = await runMain(['notes', 'update', uid, '--computer', String(computer.uid)], { env });
      expect(updated.stdout).toMatch(
        new RegExp(
          `^OWNER\\s+${String(computer.custom_name || computer.computer_name).replace(/[()]/g, '\\$&')}$`,
          'm',
        ),
      );
    });

    it('`expirations create` shows the product and owner by name; JSON stays as the API sends it', async () => {
      const product = ((await api(sandbox, '/v2.5/expiration_products')).body as Item[])[0]!;
      const manufacturer = ((await api(sandbox, '/v2.5/expiration_manufacturers')).body as Item[])[0]!;
      const args = [
        'expirations',
        'create',
        '--license-key',
        'K-NAMED',
        '--expires-at',
        '2027-01-01',
        '--manufacturer',
        String(manufacturer.uid),
        '--product',
        String(product.uid),
        '--group',
        String(acme.uid),
      ];
      const table = await runMain(args, { env });
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(new RegExp(`^PRODUCT\\s+${String(product.name).replace(/[+()]/g, '\\$&')}$`, 'm'));
      expect(table.stdout).toMatch(/^OWNER\s+Acme Design$/m);
      const json = await runMain([...args, '--json'], { env });
      expect(JSON.parse(json.stdout)).toMatchObject({ expiration_product: product.uid, group: acme.uid });
    });

    it('`computers update` shows the group by name', async () => {
      const computer = computers[0]!;
      const result = await runMain(['computers', 'update', String(computer.client_id), '--asset-id', 'A-4'], { env });
      expect(result.code).toBe(0);
      const group = ((await api(sandbox, `/v2.5/groups/${String(computer.group)}`)).body as Item).name;
      expect(result.stdout).toMatch(new RegExp(`^GROUP\\s+${String(group).replace(/[()]/g, '\\$&')}$`, 'm'));
    });
  });
});
