import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';
import { readAll } from '../helpers/sandbox-http.js';

type Item = Record<string, unknown>;

/**
 * One answer everywhere: in a table, CSV and TSV a `group` column is the group's name, in every
 * command that has one; its uid is `group_uid`; JSON keeps the API's data.
 */
describe('the group column', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let names: Map<unknown, unknown>;
  let computers: Item[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    names = new Map((await readAll(sandbox, '/v2.5/groups')).map((g) => [g.uid, g.name]));
    computers = await readAll(sandbox, '/v2.5/computers');
  });
  afterAll(() => sandbox.close());

  /** The rows of CSV or TSV output, header first. */
  const table = (stdout: string, separator: string) =>
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(separator));
  const mon = async (args: string[]) => {
    const run = await runMain(args, { env });
    expect(run.stderr).not.toMatch(/^mon: /m);
    expect(run.code).toBe(0);
    return run.stdout;
  };

  it.each([
    ['csv', ','],
    ['tsv', '\t'],
  ])('computers list -o %s: group is the name, group_uid the uid', async (format, separator) => {
    const [header, ...rows] = table(
      await mon(['computers', 'list', '--all', '-o', format, '--fields', 'client_id,group,group_uid']),
      separator,
    );
    expect(header).toEqual(['client_id', 'group', 'group_uid']);
    expect(rows).toHaveLength(computers.length);
    for (const [clientId, group, groupUid] of rows) {
      const computer = computers.find((c) => c.client_id === clientId)!;
      expect(groupUid).toBe(computer.group);
      expect(group).toBe(names.get(computer.group));
    }
    // The default columns too.
    const [defaultHeader, first] = table(await mon(['computers', 'list', '-o', format]), separator);
    expect(first![defaultHeader!.indexOf('group')]).toBe(
      names.get(computers.find((c) => c.client_id === first![0])!.group),
    );
  });

  it('computers list -o json keeps the group as the API sends it; group_uid only when --fields asks', async () => {
    const rows = JSON.parse(
      await mon(['computers', 'list', '--limit', '3', '-o', 'json', '--fields', 'client_id,group,group_uid']),
    ) as Item[];
    for (const row of rows) {
      const computer = computers.find((c) => c.client_id === row.client_id)!;
      expect(row).toEqual({ client_id: computer.client_id, group: computer.group, group_uid: computer.group });
    }
    const plain = JSON.parse(await mon(['computers', 'list', '--limit', '1', '-o', 'json'])) as Item[];
    expect(plain[0]).not.toHaveProperty('group_uid');
  });

  it('alerts -o csv: group and group_uid', async () => {
    const [header, ...rows] = table(await mon(['alerts', '-o', 'csv', '--fields', 'uid,group,group_uid']), ',');
    expect(header).toEqual(['uid', 'group', 'group_uid']);
    expect(rows.length).toBeGreaterThan(0);
    for (const [, group, groupUid] of rows) expect(group).toBe(names.get(groupUid));
  });

  it.each([['notes'], ['expirations']])('%s list -o csv --fields group gives the name', async (resource) => {
    const [header, ...rows] = table(
      await mon([resource, 'list', '--all', '-o', 'csv', '--fields', 'uid,group,group_uid']),
      ',',
    );
    expect(header).toEqual(['uid', 'group', 'group_uid']);
    const grouped = rows.filter(([, , groupUid]) => groupUid !== '');
    expect(grouped.length).toBeGreaterThan(0);
    for (const [, group, groupUid] of grouped) expect(group).toBe(names.get(groupUid));
  });

  it('a bulk mute: the result rows have a group column, the name in CSV', async () => {
    const group = [...names][0]!;
    const [header, ...rows] = table(
      await mon([
        'plugin',
        'mute',
        '--group',
        String(group[0]),
        '--ignore',
        '--yes',
        '-o',
        'csv',
        '--fields',
        'uid,group,group_uid,outcome',
      ]),
      ',',
    );
    expect(header).toEqual(['uid', 'group', 'group_uid', 'outcome']);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.slice(1)).toEqual([group[1], group[0], 'muted']);
    const [defaultHeader] = table(
      await mon(['plugin', 'unmute', '--group', String(group[0]), '--yes', '-o', 'csv']),
      ',',
    );
    expect(defaultHeader).toEqual(['uid', 'computer', 'group', 'plugin', 'outcome', 'reason']);
  });
});
