import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wanted } from '../../src/events/filter.js';
import { Journal } from '../../src/events/journal.js';
import { understand } from '../../src/events/payload.js';
import { RecentIds } from '../../src/events/seen.js';
import { eventLine } from '../../src/output/event-line.js';
import { tempDir } from '../helpers/run-mon.js';

const AT = new Date('2026-11-28T10:11:12Z');
const read = (body: unknown) =>
  understand(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), AT).understood;

describe('what mon understands of a delivery', () => {
  it.each([
    [
      { severity: 'Alert', previous_severity: 'OK' },
      { kind: 'plugin', transition: 'OK → Alert', severity: 'alert' },
    ],
    [
      { status_code: 2, previous_status: 0, new_status: 2 },
      { kind: 'plugin', transition: '0 → 2' },
    ],
    [
      { svc_test: true, event_id: 'svc_test_1' },
      { kind: 'test', id: 'svc_test_1' },
    ],
    [{ event_id: 'svc_test_2' }, { kind: 'test' }],
    [{ svc_test: 'connection_test', event_id: 'svc_test_3' }, { kind: 'connection_test' }],
    [{ event_id: 'svc_test_connection_test_4' }, { kind: 'connection_test' }],
    [{ anything: 'else' }, { kind: 'unknown' }],
    ['', { kind: 'unknown' }],
    [
      { severity: 'warning', computer: 'db-1', group: 'g_1', plugin: 'Backup' },
      { computer: 'db-1', group: 'g_1', plugin: 'Backup' },
    ],
    [
      { severity: 'warning', plugin_result: { name: 'Backup', computer: { client_id: 'C-9' }, group: { uid: 'g_9' } } },
      { computer: 'C-9', group: 'g_9', plugin: 'Backup' },
    ],
    // A computer and group as the API renders them (the sandbox's deliveries): the names shown, the handles kept.
    [
      {
        severity: 'alert',
        computer: { uid: 'c_1', client_id: 'C-1', computer_name: 'Rosa’s MacBook Pro', custom_name: null },
        group: { uid: 'g_1', name: 'Northwind Clinic' },
      },
      { computer: 'Rosa’s MacBook Pro', client_id: 'C-1', group: 'Northwind Clinic', group_uid: 'g_1' },
    ],
    [
      { severity: 'alert', computer: { client_id: 'C-1', computer_name: 'mbp', custom_name: 'Front desk' } },
      { computer: 'Front desk', client_id: 'C-1' },
    ],
  ])('%j', (body, expected) => {
    expect(read(body)).toMatchObject(expected);
  });

  it('knows a retry by its event_id, or by its whole body when it has none', () => {
    expect(read({ event_id: 'e', severity: 'ok' }).id).toBe(read({ event_id: 'e', severity: 'alert' }).id);
    expect(read({ severity: 'ok' }).id).toBe(read({ severity: 'ok' }).id);
    expect(read({ severity: 'ok' }).id).not.toBe(read({ severity: 'ok', n: 1 }).id);
  });

  it('tests pass the filters only with --include-tests; a field an event lacks matches no filter', () => {
    expect(wanted(read({ svc_test: true }), {})).toBe(false);
    expect(wanted(read({ svc_test: true }), { includeTests: true })).toBe(true);
    expect(wanted(read({ anything: 1 }), {})).toBe(true);
    expect(wanted(read({ anything: 1 }), { severity: ['alert'] })).toBe(false);
  });

  it('--computer matches the name or the client id, --group the name or the uid', () => {
    const event = read({
      severity: 'alert',
      computer: { client_id: 'C-1', computer_name: 'Rosa’s MacBook Pro' },
      group: { uid: 'g_1', name: 'Northwind Clinic' },
    });
    for (const computer of ['c-1', 'rosa’s macbook pro']) expect(wanted(event, { computer: [computer] })).toBe(true);
    for (const group of ['g_1', 'northwind clinic']) expect(wanted(event, { group: [group] })).toBe(true);
    expect(wanted(event, { computer: ['c-2'] })).toBe(false);
    expect(wanted(event, { group: ['g_2'] })).toBe(false);
  });
});

describe('the line on a terminal', () => {
  it('shows time, account, computer, group, plugin and the transition, the new severity in colour', () => {
    const event = understand(
      Buffer.from(
        JSON.stringify({
          severity: 'alert',
          previous_severity: 'ok',
          computer: { name: 'web-01' },
          group: { name: 'Servers' },
          plugin_result: { name: 'Disk' },
        }),
      ),
      AT,
      'acme',
    ).understood;
    const time = AT.getTime();
    expect(eventLine(event, time, false)).toMatch(
      /^\d\d:\d\d:\d\d {2}acme {2}web-01 {2}Servers {2}Disk {2}OK → Alert$/,
    );
    expect(eventLine(event, time, true)).toContain('OK →\x1b[31m Alert\x1b[39m');
  });

  it('keeps a hostile name on one line, escaped', () => {
    const event = understand(
      Buffer.from(JSON.stringify({ severity: 'alert', computer: 'evil\n\x1b]0;title\x07' })),
      AT,
    ).understood;
    const line = eventLine(event, AT.getTime(), false);
    expect(line).not.toMatch(/[\n\x1b\x07]/);
    expect(line).toContain('evil\\n\\e]0;title\\x07');
  });

  it('says what a test or an unknown body is', () => {
    expect(eventLine(read({ svc_test: true, event_id: 'svc_test_9' }), 0, false)).toMatch(
      / {2}test delivery {2}svc_test_9$/,
    );
    const raw = understand(Buffer.from('hello'), AT);
    expect(eventLine({ ...raw.understood, raw: raw.raw }, 0, false)).toMatch(/ {2}unrecognised event {2}hello$/);
  });
});

describe('--output-file', () => {
  it('drops a last line cut short, keeps the whole ones and reads their ids back', async () => {
    const file = join(tempDir('mon-journal-'), 'events.ndjson');
    writeFileSync(file, '{"a":1,"_mon":{"id":"one"}}\n{"_mon":{"id":"two"}}\nnot mon\'s\n{"_mon":{"id":"thr');
    const ids = new RecentIds();
    const notices: string[] = [];
    const journal = await Journal.open(file, ids, (message) => notices.push(message));
    expect([ids.has('one'), ids.has('two'), ids.size]).toEqual([true, true, 2]);
    expect(notices).toEqual([expect.stringMatching(/^--output-file: dropped a last line cut short \(18 bytes\)/)]);
    await Promise.all([journal.append('{"_mon":{"id":"three"}}'), journal.append('{"_mon":{"id":"four"}}')]);
    await journal.close();
    expect(readFileSync(file, 'utf8')).toBe(
      '{"a":1,"_mon":{"id":"one"}}\n{"_mon":{"id":"two"}}\nnot mon\'s\n{"_mon":{"id":"three"}}\n{"_mon":{"id":"four"}}\n',
    );
  });

  it('reads back the last ids only, as many as it remembers', async () => {
    const file = join(tempDir('mon-journal-'), 'events.ndjson');
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => `{"_mon":{"id":"e${i}"}}\n`).join(''));
    const ids = new RecentIds(10);
    await (await Journal.open(file, ids, () => {})).close();
    expect([ids.size, ids.has('e39'), ids.has('e40'), ids.has('e49')]).toEqual([10, false, true, true]);
  });

  it('a file with one line cut short and nothing else is emptied', async () => {
    const file = join(tempDir('mon-journal-'), 'events.ndjson');
    writeFileSync(file, '{"_mon":{"id"');
    await (await Journal.open(file, new RecentIds(), () => {})).close();
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
