import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { DryRun } from '../../src/dry-run.js';
import type { OutputFormat } from '../../src/output/types.js';
import { testClient } from '../helpers/api-client.js';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';

/**
 * src/dry-run.ts, the one place that decides a dry run: a request handed to it is shown under
 * --dry-run and never reaches the server; otherwise it is confirmed (when asked) and sent.
 */
describe('DryRun', () => {
  let api: FakeApi;
  let client: ApiClient;
  beforeAll(async () => {
    api = await startFakeApi((_req, res) => json(res, 200, { uid: 'g_1', name: 'Acme' }));
    client = testClient(api.url, { apiKey: 'k_dry_run_unit_0001' });
  });
  afterAll(async () => {
    await client.close();
    await api.close();
  });

  /** A DryRun for `dryRun` and `output`, with what it prints and says kept. */
  const made = (dryRun: boolean, output: OutputFormat = 'table') => {
    const said = { stdout: '', notices: [] as string[] };
    const run = new DryRun(
      { dryRun, output },
      {
        client: async () => client,
        notice: (message) => said.notices.push(message),
        io: { stdout: { write: (text: string) => (said.stdout += text) } },
      },
    );
    return { run, said };
  };
  const update = () => client.prepare('groups.update', { path: { uid: 'g_1' }, body: { name: 'Acme Studio' } });

  it('under --dry-run a write is printed, key redacted, and nothing reaches the server', async () => {
    const before = api.requests.length;
    const { run, said } = made(true);
    let asked = false;
    const sent = await run.send(update(), async () => {
      asked = true;
    });
    expect(sent).toBeUndefined();
    expect(asked).toBe(false);
    expect(api.requests.length).toBe(before);
    expect(said.stdout).toBe(`PUT ${api.url}/v2.5/groups/g_1\nname=Acme Studio\napi_key=[REDACTED]\n`);
    expect(said.stdout).not.toContain('k_dry_run_unit_0001');
    expect(said.notices).toEqual(['dry run: nothing was sent']);
  });

  it('under --dry-run -o json the requests are one JSON array, in order', async () => {
    const { run, said } = made(true, 'json');
    expect(await run.shows([update(), client.prepare('groups.list', {})], 'two steps')).toBe(true);
    expect(JSON.parse(said.stdout)).toEqual([
      { method: 'PUT', url: `${api.url}/v2.5/groups/g_1`, form: { name: 'Acme Studio', api_key: '[REDACTED]' } },
      { method: 'GET', url: `${api.url}/v2.5/groups?api_key=[REDACTED]`, form: {} },
    ]);
    expect(said.notices).toEqual(['dry run: nothing was sent (two steps)']);
  });

  it('without --dry-run the confirmation comes first, then the request is sent; nothing is printed', async () => {
    const before = api.requests.length;
    const { run, said } = made(false);
    const order: string[] = [];
    const sent = await run.send(update(), async () => {
      order.push(`confirmed with ${api.requests.length - before} sent`);
    });
    expect(order).toEqual(['confirmed with 0 sent']);
    expect(api.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /v2.5/groups/g_1']);
    expect(sent?.data).toEqual({ uid: 'g_1', name: 'Acme' });
    expect(said).toEqual({ stdout: '', notices: [] });
  });

  it('a refused confirmation sends nothing', async () => {
    const before = api.requests.length;
    const { run } = made(false);
    await expect(
      run.send(update(), async () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(api.requests.length).toBe(before);
  });

  it('a local change: stopped and said under --dry-run, left to the verb otherwise', () => {
    const dry = made(true);
    expect(dry.run.changesNothing('save profile acme')).toBe(true);
    expect(dry.said.notices).toEqual(['dry run: nothing was changed (this would save profile acme)']);
    const wet = made(false);
    expect(wet.run.changesNothing('save profile acme')).toBe(false);
    expect(wet.said.notices).toEqual([]);
    expect(wet.run.on).toBe(false);
  });
});
