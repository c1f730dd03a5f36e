import { describe, expect, it } from 'vitest';
import { isStatusCheck } from '../../src/main.js';
import { buildProgram } from '../../src/program.js';
import { bar } from '../../src/output/status.js';
import { createProgress } from '../../src/output/progress.js';
import { isMuted } from '../../src/model/plugin-result.js';
import { nagiosText, perfLabel } from '../../src/fleet/check.js';
import { breaches, parseRange } from '../../src/validate/range.js';

describe('Nagios threshold ranges', () => {
  // Nagios plugin guidelines, "Threshold and ranges": the examples of its table.
  it.each([
    ['10', [-1, 11], [0, 5, 10]],
    ['10:', [9, -5], [10, 11, 1000]],
    ['~:10', [11, 100], [-1000, 0, 10]],
    ['10:20', [9, 21], [10, 15, 20]],
    ['@10:20', [10, 15, 20], [9, 21]],
    ['0', [1, 2], [0]],
    ['1.5:2.5', [1, 3], [1.5, 2]],
  ])('%s alerts on %j and not on %j', (text, alert, quiet) => {
    const range = parseRange(text)!;
    expect(range.text).toBe(text);
    for (const value of alert) expect(breaches(range, value)).toBe(true);
    for (const value of quiet) expect(breaches(range, value)).toBe(false);
  });

  it.each(['', 'x', '5:1', '@', '1:2:3', '~', 'ten', '1e3'])('%j is not a range', (text) => {
    expect(parseRange(text)).toBeUndefined();
  });
});

describe('text on a Nagios line', () => {
  it.each([
    ['Ops | Prod', 'Ops / Prod'],
    ['two\nlines\r\n  and  more', 'two lines and  more'],
    ['x=1;2;3', 'x=1;2;3'],
    ['\u001b[31mred\u0007', '\\e[31mred\\x07'],
    ['a\u2028b|c\u202ed', 'a b/c\\u202ed'],
    ['  trailing\n', 'trailing'],
  ])('nagiosText(%j) is %j', (text, clean) => {
    expect(nagiosText(text)).toBe(clean);
  });

  // Nagios plugin guidelines, Performance data: 'label'=value; quotes when needed, '' for a quote, no '='.
  it.each([
    ['alerts', 'alerts'],
    ['acme.eu_alerts', 'acme.eu_alerts'],
    ['Ops Prod', "'Ops Prod'"],
    ['x=1;2;3', "'x_1;2;3'"],
    ["it's", "'it''s'"],
    ['a|b\nc', "'a/b c'"],
  ])('perfLabel(%j) is %s', (label, clean) => {
    expect(perfLabel(label)).toBe(clean);
  });
});

describe('isStatusCheck: which command lines answer in the Nagios format', () => {
  it.each([
    [['status', '--check'], true],
    [['-p', 'acme', 'status', '--check'], true],
    [['--timeout', '5', 'status', '--warning-alerts', '1', '--check'], true],
    [['status'], false],
    [['alerts', '--check'], false],
    [['computers', 'list', '--status', 'missing', '--check'], false],
    [['-p', 'status', 'alerts', '--check'], false],
    [['--jq', 'status', 'alerts', '--check'], false],
    [['-o', 'json', 'status', '--check'], true],
  ])('%j: %s', (argv, expected) => {
    // The root options that take a value come from the program itself.
    const program = buildProgram({ writeOut: () => undefined, writeErr: () => undefined }, async () => undefined);
    expect(isStatusCheck(program, argv)).toBe(expected);
  });
});

describe('bars', () => {
  it.each([
    [0, 10, ''],
    [10, 10, '████████████████████████'],
    [5, 10, '████████████'],
    [1, 1000, '▏'],
    [3, 16, '████▌'],
  ])('bar(%i, %i) is %j', (value, max, expected) => {
    expect(bar(value, max)).toBe(expected);
  });
});

describe('mutes in force', () => {
  const now = 2_000_000_000;
  it.each([
    [{ muted: true, mute_type: 'muted_forever' }, true],
    [{ muted: true, mute_type: 'timed_mute', mute_until: now + 60 }, true],
    [{ muted: true, mute_type: 'timed_mute', muted_until: now - 60 }, false],
    [{ muted: true, mute_type: 'ticket_muted' }, true],
    [{ muted: false }, false],
  ])('%j: %s', (result, expected) => {
    expect(isMuted(result, now)).toBe(expected);
  });
});

describe('progress', () => {
  const sink = (isTTY: boolean) => {
    const out = { text: '', isTTY, write: (chunk: string) => (out.text += chunk) };
    return out;
  };

  it('shows on a terminal only after a second, then clears its line', () => {
    let now = 0;
    const err = sink(true);
    const progress = createProgress(err, () => now, { quiet: false });
    progress.update('reading 100');
    expect(err.text).toBe('');
    now = 1_000;
    progress.update('reading 200');
    expect(err.text).toBe('\rreading 200\x1b[K');
    progress.done();
    expect(err.text).toBe('\rreading 200\x1b[K\r\x1b[K');
  });

  it('on a terminal that draws no escapes (TERM=dumb) covers the line with spaces instead', () => {
    let now = 1_000;
    const err = sink(true);
    const progress = createProgress(err, () => now, { quiet: false, term: 'dumb' });
    now = 2_000;
    progress.update('reading 1000/2000');
    progress.update('reading 2000');
    progress.done();
    expect(err.text).toBe(`\rreading 1000/2000\rreading 2000     \r${' '.repeat(12)}\r`);
    expect(err.text).not.toContain('\x1b');
  });

  it.each([
    ['in a pipe', false, false],
    ['with --quiet', true, true],
  ])('says nothing %s', (_case, tty, quiet) => {
    let now = 0;
    const err = sink(tty);
    const progress = createProgress(err, () => now, { quiet });
    now = 5_000;
    progress.update('reading');
    progress.done();
    expect(err.text).toBe('');
  });
});
