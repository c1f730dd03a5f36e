import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, type Clock, DAY, NOW_SEC, errorOf, start } from './helpers.js';

interface PluginResult {
  uid: string;
  name: string;
  slug: string;
  status: string;
  muted: boolean;
  mute_type: string | null;
  mute_description?: string;
  mute_until?: number;
  ticket_number?: string;
  ticket_url?: string | null;
  visible: boolean;
  [k: string]: unknown;
}
interface Computer {
  client_id: string;
  plugin_results: PluginResult[];
}

let sandbox: RunningSandbox;
let api: Api;
let clock: Clock;
let results: PluginResult[];
let computers: Computer[];

beforeAll(async () => {
  ({ sandbox, api, clock } = await start());
  computers = (await api.get('/v2.5/computers', { per_page: 100, 'expand[]': 'plugin_results' })).body;
  results = computers.flatMap((c) => c.plugin_results);
});
afterAll(() => sandbox.close());

const mute = (uid: string, fields: Record<string, string | number>) =>
  api.send(
    'PUT',
    `/v2.5/plugin_results/${uid}`,
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [`plugin_result[${k}]`, v])),
  );
const pick = (k: number): PluginResult => results[k] as PluginResult;

describe('seeded plugin results', () => {
  it('cover every status, every mute type and hidden service plugins', () => {
    for (const status of ['OK', 'Warning', 'Alert', 'Informational'])
      expect(
        results.some((r) => r.status === status),
        status,
      ).toBe(true);
    for (const type of ['timed_mute', 'ticket_muted', 'muted_forever'])
      expect(
        results.some((r) => r.mute_type === type),
        type,
      ).toBe(true);
    expect(results.some((r) => !r.visible)).toBe(true);
    expect(results.some((r) => !r.muted)).toBe(true);
    for (const c of computers) {
      expect(c.plugin_results.length).toBeGreaterThanOrEqual(3);
      expect(c.plugin_results.length).toBeLessThanOrEqual(8);
    }
  });

  it('carry the mute fields of their type only', () => {
    for (const r of results) {
      const base = ['uid', 'name', 'slug', 'status', 'details', 'last_run', 'muted', 'mute_type', 'visible'];
      const extra =
        r.mute_type === 'timed_mute'
          ? ['mute_description', 'mute_until', 'muted_until']
          : r.mute_type === 'ticket_muted'
            ? ['mute_description', 'ticket_number', 'ticket_url']
            : r.mute_type === 'muted_forever'
              ? ['mute_description']
              : [];
      expect(Object.keys(r).sort()).toEqual([...base, ...extra].sort());
      expect(r.muted).toBe(r.mute_type !== null);
      expect(r.uid).toMatch(/^pr_/);
      expect(r.slug).not.toBe(r.uid);
    }
  });
});

describe('PUT /v2.5/plugin_results/{uid}', () => {
  it('mutes until a future time: timed_mute with description and mute_until', async () => {
    const until = NOW_SEC + 2 * DAY + 7200;
    const res = await mute(pick(0).uid, { mute_type: 'timed', mute_until: until });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uid: pick(0).uid,
      muted: true,
      mute_type: 'timed_mute',
      mute_until: until,
      mute_description: 'Muted until 2025-06-03 14:00 UTC',
    });
    expect(res.body.ticket_number).toBeUndefined();
  });

  it('refuses a timed mute without mute_until or with one in the past (422 on mute_until)', async () => {
    const cases: Record<string, string | number>[] = [
      { mute_type: 'timed' },
      { mute_type: 'timed', mute_until: NOW_SEC },
      { mute_type: 'timed', mute_until: NOW_SEC - 60 },
      { mute_type: 'timed', mute_until: 'tomorrow' },
    ];
    for (const fields of cases) {
      const res = await mute(pick(1).uid, fields);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(errorOf(res)).toMatchObject({ attribute: 'mute_until', code: ':unprocessable_entity' });
    }
  });

  it('mutes with a ticket: ticket_muted with number and url', async () => {
    const res = await mute(pick(2).uid, {
      mute_type: 'ticket',
      ticket_number: '123',
      ticket_url: 'https://tickets.example/123',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      muted: true,
      mute_type: 'ticket_muted',
      ticket_number: '123',
      ticket_url: 'https://tickets.example/123',
      mute_description: 'Muted with ticket #123',
    });
    expect(res.body.mute_until).toBeUndefined();
    expect(res.body.muted_until).toBeUndefined();
    const noUrl = await mute(pick(3).uid, { mute_type: 'ticket', ticket_number: 'T-9' });
    expect(noUrl.body).toMatchObject({ mute_type: 'ticket_muted', ticket_number: 'T-9', ticket_url: null });
  });

  it('requires ticket_number for a ticket mute (422)', async () => {
    const res = await mute(pick(4).uid, { mute_type: 'ticket', ticket_url: 'https://tickets.example/1' });
    expect(res.status).toBe(422);
    expect(errorOf(res).attribute).toBe('ticket_number');
  });

  it('mutes forever with ignored', async () => {
    const res = await mute(pick(5).uid, { mute_type: 'ignored' });
    expect(res.body).toMatchObject({ muted: true, mute_type: 'muted_forever', mute_description: 'Muted forever' });
  });

  it('clears every mute with none', async () => {
    for (const k of [0, 2, 5]) {
      const res = await mute(pick(k).uid, { mute_type: 'none' });
      expect(res.status).toBe(200);
      expect(res.body.muted).toBe(false);
      expect(res.body.mute_type).toBeNull();
      for (const gone of ['mute_description', 'mute_until', 'muted_until', 'ticket_number', 'ticket_url'])
        expect(res.body[gone]).toBeUndefined();
    }
  });

  it('shows the mute when the computer is read again', async () => {
    const computer = computers[6] as Computer;
    const target = computer.plugin_results[0] as PluginResult;
    await mute(target.uid, { mute_type: 'ignored' });
    const again = (await api.get(`/v2.5/computers/${computer.client_id}`, { 'expand[]': 'plugin_results' }))
      .body as Computer;
    expect(again.plugin_results.find((r) => r.uid === target.uid)).toMatchObject({
      muted: true,
      mute_type: 'muted_forever',
    });
    const muted = (await api.get('/v2.5/computers', { status: 'has_muted_plugin', per_page: 100 })).body as Computer[];
    expect(muted.map((c) => c.client_id)).toContain(computer.client_id);
  });

  it('reads a timed mute as unmuted once mute_until has passed', async () => {
    // from the end: the tests above mute results of the first computers
    const computer = [...computers].reverse().find((c) => c.plugin_results.every((r) => !r.muted)) as Computer;
    const target = computer.plugin_results[0] as PluginResult;
    await mute(target.uid, { mute_type: 'timed', mute_until: NOW_SEC + 3600 });
    const inList = async () =>
      ((await api.get('/v2.5/computers', { status: 'has_muted_plugin', per_page: 100 })).body as Computer[]).map(
        (c) => c.client_id,
      );
    expect(await inList()).toContain(computer.client_id);
    const saved = clock.ms;
    clock.advance(3600);
    try {
      const read = (await api.get(`/v2.5/computers/${computer.client_id}`, { 'expand[]': 'plugin_results' }))
        .body as Computer;
      expect(read.plugin_results[0]).toMatchObject({ uid: target.uid, muted: false, mute_type: null });
      expect(await inList()).not.toContain(computer.client_id);
    } finally {
      clock.ms = saved;
    }
  });

  it('answers 422 for an unknown mute_type and 400 when it is missing', async () => {
    const bad = await mute(pick(7).uid, { mute_type: 'snooze' });
    expect(bad.status).toBe(422);
    expect(errorOf(bad).attribute).toBe('mute_type');
    const missing = await mute(pick(7).uid, { ticket_number: '1' });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).code).toBe(':missing_parameter');
  });

  it('refuses unknown attributes (400) and answers 500 for a ticket_number over 255', async () => {
    const extra = await mute(pick(8).uid, { mute_type: 'ignored', reason: 'noise' });
    expect(extra.status).toBe(400);
    expect(errorOf(extra).code).toBe(':unpermitted_parameter');
    const long = await mute(pick(8).uid, { mute_type: 'ticket', ticket_number: '9'.repeat(256) });
    expect(long.status).toBe(500);
  });
});

describe('without a ticket integration', () => {
  it('refuses ticket mutes with 422 on ticket_number, other mutes still work', async () => {
    const { sandbox: sb, api: a } = await start({ ticketIntegration: false });
    try {
      const c = (await a.get('/v2.5/computers', { 'expand[]': 'plugin_results' })).body[0] as Computer;
      const uid = (c.plugin_results[0] as PluginResult).uid;
      const res = await a.send('PUT', `/v2.5/plugin_results/${uid}`, {
        'plugin_result[mute_type]': 'ticket',
        'plugin_result[ticket_number]': '5',
      });
      expect(res.status).toBe(422);
      expect(errorOf(res).attribute).toBe('ticket_number');
      expect(errorOf(res).details).toMatch(/integration/);
      const ok = await a.send('PUT', `/v2.5/plugin_results/${uid}`, { 'plugin_result[mute_type]': 'ignored' });
      expect(ok.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
