/**
 * The living fleet (#43, item 1): simulated time steps forward on demand, and what a client
 * reads moves consistently and deterministically.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import type { Transition } from '../../src/sandbox/live.js';
import { allPages, Api, Clock, DAY, errorOf, NOW_SEC } from './helpers.js';

const HOUR = 3_600;
const open: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function live(options: SandboxOptions = {}): Promise<{ sandbox: RunningSandbox; api: Api }> {
  // the real clock stands still: only tick() moves the simulated one
  const sandbox = await startSandbox({ port: 0, now: new Clock().now, live: { speed: 60 }, ...options });
  open.push(sandbox);
  return { sandbox, api: new Api(sandbox) };
}

const brief = (ts: readonly Transition[]): string[] =>
  ts.map((t) => `${t.atSec - NOW_SEC} ${t.computer.client_id.slice(0, 8)} ${t.result.slug} ${t.previous}->${t.status}`);

describe('the living fleet', () => {
  it('is deterministic: one 3-day step and 72 one-hour steps make the same transitions and the same fleet', async () => {
    const a = await live();
    const b = await live();
    const once = brief(a.sandbox.tick(3 * DAY));
    const hourly: string[] = [];
    for (let h = 0; h < 72; h++) hourly.push(...brief(b.sandbox.tick(HOUR)));
    expect(once.length).toBeGreaterThan(5);
    expect(hourly).toEqual(once);
    expect(await allPages(b.api, '/v2.5/computers', { 'expand[]': 'plugin_results' })).toEqual(
      await allPages(a.api, '/v2.5/computers', { 'expand[]': 'plugin_results' }),
    );
  });

  it('makes these exact transitions in the first day of seed 1, and others with another seed', async () => {
    const { sandbox } = await live();
    expect(brief(sandbox.tick(DAY))).toEqual(EXPECTED_SEED_1_DAY_1);
    const other = await live({ seed: 7 });
    expect(brief(other.sandbox.tick(DAY))).not.toEqual(EXPECTED_SEED_1_DAY_1);
  });

  it('starts as the demo fleet users know: the same data as a still sandbox at the same start', async () => {
    const { api } = await live();
    const still = await startSandbox({ port: 0, now: new Clock().now });
    open.push(still);
    expect(await allPages(api, '/v2.5/computers')).toEqual(await allPages(new Api(still), '/v2.5/computers'));
  });

  it('computers report on their hourly schedule: last_report, last_update and each last_run move together, never ahead of now', async () => {
    const { sandbox, api } = await live();
    const before = (await allPages(api, '/v2.5/computers')) as any[];
    const reporting = before.filter((c) => NOW_SEC - c.last_report < 2 * DAY).map((c) => c.client_id);
    sandbox.tick(3 * HOUR);
    const now = NOW_SEC + 3 * HOUR;
    const after = new Map(
      ((await allPages(api, '/v2.5/computers', { 'expand[]': 'plugin_results' })) as any[]).map((c) => [
        c.client_id,
        c,
      ]),
    );
    const fresh = reporting.filter((id) => now - after.get(id).last_report <= HOUR);
    // a computer or two may have stopped reporting in three hours; the rest reported within the hour
    expect(fresh.length).toBeGreaterThanOrEqual(reporting.length - 2);
    for (const id of fresh) {
      const c = after.get(id);
      expect(c.last_report).toBeLessThanOrEqual(now);
      expect(c.last_update).toBe(c.last_report);
      for (const r of c.plugin_results) expect(r.last_run).toBe(c.last_report);
    }
  });

  it('over a month: computers go missing and come back, new ones enrol in Staging, x-total and missing follow', async () => {
    const { sandbox, api } = await live();
    const missingBefore = new Set(
      ((await allPages(api, '/v2.5/computers')) as any[]).filter((c) => c.missing).map((c) => c.client_id),
    );
    const groups = (await api.get('/v2.5/groups')).body as any[];
    const staging = groups.find((g) => g.name === 'Staging – new hires');
    expect(((await allPages(api, '/v2.5/computers')) as any[]).filter((c) => c.group === staging.uid)).toEqual([]);
    let cameBack = false;
    for (let d = 0; d < 30; d++) {
      sandbox.tick(DAY);
      const now = (await allPages(api, '/v2.5/computers')) as any[];
      if (now.some((c) => missingBefore.has(c.client_id) && !c.missing)) cameBack = true;
    }
    const end = (await allPages(api, '/v2.5/computers')) as any[];
    const total = Number((await api.get('/v2.5/computers', { per_page: 1 })).headers.get('x-total'));
    expect(total).toBe(end.length);
    const enrolled = end.filter((c) => c.group === staging.uid);
    expect(total).toBeGreaterThan(40);
    expect(enrolled.length).toBe(total - 40);
    for (const c of enrolled) expect(c.created_at).toBeGreaterThan(NOW_SEC);
    expect(end.filter((c) => c.missing && !missingBefore.has(c.client_id)).length).toBeGreaterThan(0);
    expect(cameBack).toBe(true);
    const filtered = Number(
      (await api.get('/v2.5/computers', { per_page: 1, status: 'missing' })).headers.get('x-total'),
    );
    expect(filtered).toBe(end.filter((c) => c.missing).length);
  });
});

describe('control routes', () => {
  it('POST /_sandbox/tick moves the clock and lists the transitions; refused without the key, with a bad value, on a still sandbox', async () => {
    const { api } = await live();
    const res = await api.send('POST', '/_sandbox/tick', { seconds: DAY });
    expect(res.status).toBe(200);
    expect(res.body.now).toBe(NOW_SEC + DAY);
    // the Date header is the simulated clock's
    expect(Date.parse(res.headers.get('date') ?? '') / 1000).toBe(NOW_SEC + DAY);
    expect(
      res.body.transitions.map((t: any) => `${t.at - NOW_SEC} ${t.client_id.slice(0, 8)} ${t.previous}->${t.status}`),
    ).toEqual(EXPECTED_SEED_1_DAY_1.map((line) => line.replace(/ \S+ (\S+->\S+)$/, ' $1')));
    expect((await api.as(null).send('POST', '/_sandbox/tick', { seconds: 60 })).status).toBe(401);
    const bad = await api.send('POST', '/_sandbox/tick', { seconds: '0' });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details).toMatch(/^seconds must be an integer from 1/);
    const still = await startSandbox({ port: 0, now: new Clock().now });
    open.push(still);
    const refused = await new Api(still).send('POST', '/_sandbox/tick', { seconds: 60 });
    expect(refused.status).toBe(409);
    expect(errorOf(refused).details).toMatch(/--live/);
  });

  it('trigger missing makes a reporting computer missing at once, and it stays so', async () => {
    const { api } = await live();
    const res = await api.send('POST', '/_sandbox/trigger', { kind: 'missing' });
    expect(res.status).toBe(200);
    const id = res.body.client_id;
    expect((await api.get(`/v2.5/computers/${id}`)).body.missing).toBe(true);
    await api.send('POST', '/_sandbox/tick', { seconds: 2 * DAY });
    expect((await api.get(`/v2.5/computers/${id}`)).body.missing).toBe(true);
  });

  it('trigger alert turns a named plugin result Alert, with has_issue on its computer', async () => {
    const { api } = await live();
    const c = ((await allPages(api, '/v2.5/computers', { 'expand[]': 'plugin_results' })) as any[]).find(
      (x) => !x.has_issue && !x.hidden && x.plugin_results.some((r: any) => r.visible && r.status === 'OK'),
    );
    const pr = c.plugin_results.find((r: any) => r.visible && r.status === 'OK');
    const res = await api.send('POST', '/_sandbox/trigger', { kind: 'alert', target: pr.uid });
    expect(res.body).toMatchObject({
      plugin_result_uid: pr.uid,
      client_id: c.client_id,
      previous: 'OK',
      status: 'Alert',
      cause: 'forced',
    });
    const now = (await api.get(`/v2.5/computers/${c.client_id}`, { 'expand[]': 'plugin_results' })).body;
    expect(now.has_issue).toBe(true);
    expect(now.plugin_results.find((r: any) => r.uid === pr.uid)).toMatchObject({
      status: 'Alert',
      details: expect.stringMatching(/./),
    });
    const unknown = await api.send('POST', '/_sandbox/trigger', { kind: 'alert', target: 'pr_nosuchthing00' });
    expect(unknown.status).toBe(404);
    const kind = await api.send('POST', '/_sandbox/trigger', { kind: 'explode' });
    expect(kind.status).toBe(400);
    expect(errorOf(kind).details).toMatch(/^kind must be one of test, connection_test, missing, alert, warning, ok/);
  });
});

/** Seconds after the start, the computer's client id (8 characters), the plugin and the change. */
const EXPECTED_SEED_1_DAY_1: string[] = [
  '18795 66028288 macos_updates OK->Warning',
  '18800 AA84FE63 load_average Alert->OK',
  '29208 83E6FEC8 macos_updates OK->Warning',
  '35266 83E37AA5 windows_update OK->Warning',
  '42466 83E37AA5 windows_update Warning->OK',
  '43608 83E6FEC8 macos_updates Warning->OK',
  '61335 4934A281 filevault Warning->OK',
  '84795 007493FE windows_update OK->Warning',
];

describe('how checks move, over two months of 200 computers', () => {
  it('disks fill to Warning and Alert, updates pend and install, backups age, a SMART error never clears', async () => {
    const { sandbox } = await live({ computers: 200 });
    const seen = new Map<string, Set<string>>();
    const smartBroken = new Set<string>();
    for (let d = 0; d < 60; d++) {
      for (const t of sandbox.tick(DAY)) {
        const kinds = seen.get(t.result.slug) ?? new Set<string>();
        kinds.add(`${t.previous}->${t.status}`);
        seen.set(t.result.slug, kinds);
        if (t.result.slug === 'smart_status' && t.cause === 'simulated') {
          expect(t.status, 'a SMART error stays').not.toBe('OK');
          smartBroken.add(t.result.uid);
        }
      }
    }
    expect([...(seen.get('disk_space') ?? [])]).toEqual(expect.arrayContaining(['OK->Warning', 'Warning->Alert']));
    expect([...(seen.get('macos_updates') ?? []), ...(seen.get('windows_update') ?? [])]).toEqual(
      expect.arrayContaining(['OK->Warning', 'Warning->OK']),
    );
    expect([...(seen.get('time_machine') ?? [])]).toEqual(expect.arrayContaining(['OK->Warning']));
    expect(smartBroken.size).toBeGreaterThan(0);
  }, 120_000);
});
