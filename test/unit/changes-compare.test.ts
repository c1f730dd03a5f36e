import { describe, expect, it } from 'vitest';
import { ChangeCollector, Comparison, normalise } from '../../src/changes/compare.js';
import { OVERDUE } from '../../src/commands/computers.js';
import { MUTE_COMPARED } from '../../src/commands/plugin.js';

describe('what --changes compares', () => {
  it.each([
    [
      'an epoch time and the same instant in ISO 8601',
      'last_report',
      1_795_000_000,
      new Date(1_795_000_000_000).toISOString(),
    ],
    ['a time as a numeric string', 'last_report', 1_795_000_000, '1795000000'],
    ['the decimal percent as a number and as a JSON string', 'boot_volume_usage_percent', 41.5, '41.50'],
    ['a boolean and its text', 'hidden', false, 'false'],
    ['a uid and the object --expand gives', 'group', 'g_a', { uid: 'g_a', name: 'Alpha' }],
    ['null, absent and empty', 'asset_id', null, ''],
  ])('%s compare equal', (_label, key, a, b) => {
    expect(normalise(a, key)).toEqual(normalise(b, key));
  });

  it('keeps long text as a short fingerprint that still tells texts apart', () => {
    const body = 'x'.repeat(10_000);
    expect(String(normalise(body, 'body')).length).toBeLessThan(20);
    expect(normalise(body, 'body')).not.toEqual(normalise(`${body}y`, 'body'));
  });

  it('overdue: the last report is older than report_missing_after days, 7 by default', () => {
    const now = 1_800_000_000;
    expect(OVERDUE.get({ last_report: now - 8 * 86_400 }, now)).toBe(true);
    expect(OVERDUE.get({ last_report: now - 6 * 86_400 }, now)).toBe(false);
    expect(
      OVERDUE.get({ last_report: new Date((now - 4 * 86_400) * 1000).toISOString(), report_missing_after: 3 }, now),
    ).toBe(true);
    expect(OVERDUE.get({ last_report: null }, now)).toBe(null);
  });

  it('mute: the same timed mute under mute_until or muted_until is one value; a ticket is another', () => {
    const timed = { muted: true, mute_type: 'timed_mute', mute_until: 1_800_000_000 };
    expect(normalise(MUTE_COMPARED.get(timed, 0), 'mute')).toEqual(
      normalise(MUTE_COMPARED.get({ muted: true, mute_type: 'timed_mute', muted_until: '1800000000' }, 0), 'mute'),
    );
    expect(
      normalise(MUTE_COMPARED.get({ muted: true, mute_type: 'ticket_muted', ticket_number: '12' }, 0), 'mute'),
    ).not.toEqual(normalise(MUTE_COMPARED.get(timed, 0), 'mute'));
    expect(MUTE_COMPARED.get({ muted: false }, 0)).toBe(false);
  });

  it('names what is new, changed and gone; an item listed twice counts once', () => {
    const comparison = new Comparison(['status'], [], 0);
    const collector = new ChangeCollector(
      comparison,
      new Map([
        ['a', ['OK']],
        ['b', ['OK']],
        ['c', ['Alert']],
      ]),
    );
    collector.push([
      { uid: 'a', status: 'OK' },
      { uid: 'b', status: 'Alert' },
      { uid: 'd', status: 'OK' },
    ]);
    collector.push([{ uid: 'd', status: 'OK' }]);
    expect(collector.result()).toEqual([
      { change: 'changed', item: { uid: 'b', status: 'Alert' }, changed: ['status'] },
      { change: 'new', item: { uid: 'd', status: 'OK' } },
      { change: 'gone', item: { uid: 'c', status: 'Alert' } },
    ]);
  });
});
