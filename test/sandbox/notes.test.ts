import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, NOW_SEC, errorOf, start } from './helpers.js';

interface Note {
  uid: string;
  computer: string | null;
  group: string | null;
  body: string;
  created_at: number;
  private: boolean;
  include_in_email: boolean;
  include_in_report: boolean;
}

let sandbox: RunningSandbox;
let api: Api;
let everything: Note[];
let computerUid: string;
let groupUid: string;

beforeAll(async () => {
  ({ sandbox, api } = await start());
  everything = (await api.get('/v2.5/notes', { include_private: 'true' })).body;
  computerUid = (await api.get('/v2.5/computers')).body[0].uid;
  groupUid = (await api.get('/v2.5/groups')).body[0].uid;
});
afterAll(() => sandbox.close());

const uids = (xs: { uid: string }[]): string[] => xs.map((x) => x.uid);

describe('GET /v2.5/notes', () => {
  it('seeds public and private notes on computers and groups, newest first', () => {
    expect(everything.some((n) => n.private)).toBe(true);
    expect(everything.some((n) => !n.private)).toBe(true);
    expect(everything.some((n) => n.computer !== null && n.group === null)).toBe(true);
    expect(everything.some((n) => n.group !== null && n.computer === null)).toBe(true);
    const times = everything.map((n) => n.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const n of everything) {
      expect(Object.keys(n).sort()).toEqual([
        'body',
        'computer',
        'created_at',
        'group',
        'include_in_email',
        'include_in_report',
        'private',
        'uid',
      ]);
    }
  });

  it('hides private notes unless include_private is true, yes or 1', async () => {
    const publicOnly = uids(everything.filter((n) => !n.private));
    expect(uids((await api.get('/v2.5/notes')).body)).toEqual(publicOnly);
    expect(uids((await api.get('/v2.5/notes', { include_private: 'false' })).body)).toEqual(publicOnly);
    for (const v of ['true', 'yes', '1']) {
      expect(uids((await api.get('/v2.5/notes', { include_private: v })).body), v).toEqual(uids(everything));
    }
  });

  it('filters by computer or by group, never both', async () => {
    const onComputer = everything.find((n) => n.computer !== null) as Note;
    expect(
      uids((await api.get('/v2.5/notes', { computer: onComputer.computer as string, include_private: '1' })).body),
    ).toEqual(uids(everything.filter((n) => n.computer === onComputer.computer)));
    const onGroup = everything.find((n) => n.group !== null) as Note;
    expect(uids((await api.get('/v2.5/notes', { group: onGroup.group as string, include_private: '1' })).body)).toEqual(
      uids(everything.filter((n) => n.group === onGroup.group)),
    );
    const both = await api.get('/v2.5/notes', { computer: computerUid, group: groupUid });
    expect(both.status).toBe(400);
    expect(errorOf(both).details).toMatch(/computer/);
  });

  it('refuses the v2.2 filter names instead of listing everything', async () => {
    const res = await api.get('/v2.5/notes', { computer_id: computerUid });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe(':unpermitted_parameter');
  });

  it('expands computer and group', async () => {
    const onComputer = everything.find((n) => n.computer !== null && !n.private) as Note;
    const res = await api.get(`/v2.5/notes/${onComputer.uid}`, { 'expand[]': ['computer', 'group'] });
    expect(res.body.computer).toMatchObject({ uid: onComputer.computer, client_id: expect.any(String) });
    expect(res.body.group).toBeNull();
    const onGroup = everything.find((n) => n.group !== null) as Note;
    expect((await api.get(`/v2.5/notes/${onGroup.uid}`, { 'expand[]': 'group' })).body.group).toMatchObject({
      uid: onGroup.group,
      slug: expect.any(String),
    });
  });

  it('gets a private note by uid', async () => {
    const priv = everything.find((n) => n.private) as Note;
    expect((await api.get(`/v2.5/notes/${priv.uid}`)).body).toEqual(priv);
  });
});

describe('POST /v2.5/notes', () => {
  it('creates a note on a computer with booleans defaulting to false', async () => {
    const res = await api.send('POST', '/v2.5/notes', {
      'note[computer_id]': computerUid,
      'note[body]': 'Line one\nLine two — ünïcode',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      computer: computerUid,
      group: null,
      body: 'Line one\nLine two — ünïcode',
      private: false,
      include_in_email: false,
      include_in_report: false,
      created_at: NOW_SEC,
    });
    expect(res.body.uid).toMatch(/^n_/);
  });

  it('creates a note on a group, accepting true/1/yes for booleans', async () => {
    const res = await api.send('POST', '/v2.5/notes', {
      'note[group_id]': groupUid,
      'note[body]': 'Group note',
      'note[private]': '1',
      'note[include_in_email]': 'true',
      'note[include_in_report]': 'yes',
    });
    expect(res.body).toMatchObject({
      group: groupUid,
      computer: null,
      private: true,
      include_in_email: true,
      include_in_report: true,
    });
    // private: not in the default list
    expect(uids((await api.get('/v2.5/notes')).body)).not.toContain(res.body.uid);
    expect(uids((await api.get('/v2.5/notes', { include_private: 'yes' })).body)).toContain(res.body.uid);
  });

  it('answers 422 naming computer_id when both computer_id and group_id are sent', async () => {
    const res = await api.send('POST', '/v2.5/notes', {
      'note[computer_id]': computerUid,
      'note[group_id]': groupUid,
      'note[body]': 'x',
    });
    expect(res.status).toBe(422);
    expect(errorOf(res)).toMatchObject({ attribute: 'computer_id', code: ':unprocessable_entity' });
  });

  it('needs an owner and a body (400 :missing_parameter)', async () => {
    const noOwner = await api.send('POST', '/v2.5/notes', { 'note[body]': 'x' });
    expect(noOwner.status).toBe(400);
    expect(errorOf(noOwner).code).toBe(':missing_parameter');
    const noBody = await api.send('POST', '/v2.5/notes', { 'note[group_id]': groupUid });
    expect(noBody.status).toBe(400);
    expect(errorOf(noBody).details).toContain('note[body]');
  });

  it('answers 422 for an owner that does not exist', async () => {
    const res = await api.send('POST', '/v2.5/notes', { 'note[computer_id]': 'c_nope', 'note[body]': 'x' });
    expect(res.status).toBe(422);
    expect(errorOf(res).attribute).toBe('computer_id');
  });

  it('answers 500 for a body over 16777215 characters and for ids over 191; a large body is kept whole', async () => {
    const over = await api.send('POST', '/v2.5/notes', {
      'note[group_id]': groupUid,
      'note[body]': 'b'.repeat(16_777_216),
    });
    expect(over.status).toBe(500);
    // A body far over every other limit is taken and given back whole: 1 MB proves what 16 MB
    // would, at a sixteenth of the cost (the limit's boundary itself is the one rule that
    // computers' 65535-character description tests at the limit).
    const large = await api.send('POST', '/v2.5/notes', {
      'note[group_id]': groupUid,
      'note[body]': 'b'.repeat(1_048_576),
    });
    expect(large.status).toBe(200);
    expect(large.body.body).toHaveLength(1_048_576);
    const longId = await api.send('POST', '/v2.5/notes', {
      'note[group_id]': `g_${'x'.repeat(190)}`,
      'note[body]': 'x',
    });
    expect(longId.status).toBe(500);
  });

  it('refuses unknown attributes with 400', async () => {
    const res = await api.send('POST', '/v2.5/notes', {
      'note[group_id]': groupUid,
      'note[body]': 'x',
      'note[pinned]': 'true',
    });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe(':unpermitted_parameter');
  });
});

describe('PUT and DELETE /v2.5/notes/{uid}', () => {
  it('updates only what is sent', async () => {
    const n = everything.find((x) => !x.private && x.computer !== null) as Note;
    const res = await api.send('PUT', `/v2.5/notes/${n.uid}`, { 'note[include_in_email]': 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...n, include_in_email: true });
    const body = await api.send('PUT', `/v2.5/notes/${n.uid}`, { 'note[body]': 'Rewritten' });
    expect(body.body).toEqual({ ...n, include_in_email: true, body: 'Rewritten' });
  });

  it('moves a note to a group and refuses both owners (422)', async () => {
    const n = everything.find((x) => x.computer !== null) as Note;
    const moved = await api.send('PUT', `/v2.5/notes/${n.uid}`, { 'note[group_id]': groupUid });
    expect(moved.body).toMatchObject({ group: groupUid, computer: null });
    const both = await api.send('PUT', `/v2.5/notes/${n.uid}`, {
      'note[group_id]': groupUid,
      'note[computer_id]': computerUid,
    });
    expect(both.status).toBe(422);
  });

  it('answers 422 for a bad boolean', async () => {
    const n = everything[0] as Note;
    const bad = await api.send('PUT', `/v2.5/notes/${n.uid}`, { 'note[private]': 'sometimes' });
    expect(bad.status).toBe(422);
    expect(errorOf(bad).attribute).toBe('private');
  });

  it('deletes with 204 and no body', async () => {
    const n = everything[everything.length - 1] as Note;
    const res = await api.send('DELETE', `/v2.5/notes/${n.uid}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/v2.5/notes/${n.uid}`)).status).toBe(404);
  });
});
