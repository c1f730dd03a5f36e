import type { Command } from 'commander';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { fullProgram } from '../../scripts/generated-files.js';
import {
  isResource,
  optionLabel,
  optionsOf,
  type ArgSpec,
  type OptionSpec,
  type Rule,
  type VerbSpec,
} from '../../src/spec/spec.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';
import { runMon } from '../helpers/run-mon.js';

/** One line on stderr, `mon: <what is wrong> — <what to type next>`, exit 2, nothing on stdout. */
function expectOneLineWithHint(result: { code: number | null; stdout: string; stderr: string }): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^mon: [^\n]+ — [^\n]+\n$/);
}

describe('mon help <command> <verb> and commands left unfinished (#12 item 15)', () => {
  it('`mon help computers list` prints the help of list, as `mon computers list --help` does', async () => {
    const [viaHelp, viaFlag] = await Promise.all([
      runMon(['help', 'computers', 'list']),
      runMon(['computers', 'list', '--help']),
    ]);
    expect(viaHelp).toMatchObject({ code: 0, stderr: '' });
    expect(viaHelp.stdout).toMatch(/^Usage: mon computers list\|ls \[options\]\n/);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it.each([
    [['help', 'nosuch'], "mon: no command 'nosuch' — `mon --help` lists the commands\n"],
    [['help', 'computrs'], "mon: no command 'computrs' — did you mean `mon help computers`?\n"],
    [['help', 'computers', 'lsit'], "mon: no command 'lsit' in computers — did you mean `mon help computers list`?\n"],
    [
      ['notes'],
      'mon: notes needs one of list, get, create, update or delete — e.g. `mon notes list`; `mon notes --help` says what each does\n',
    ],
    [
      ['completion'],
      'mon: completion needs one of bash, zsh or fish — e.g. `mon completion bash`; `mon completion --help` says what each does\n',
    ],
  ])('`mon %j` is one line saying what is wrong and what to type (exit 2)', async (args, line) => {
    expect(await runMain(args)).toMatchObject({ code: 2, stdout: '', stderr: line });
  });
});

describe('help layout (#12 item 16)', () => {
  it("a verb's help shows its own options and examples first, then the global options as one short block at the end", async () => {
    const { code, stdout } = await runMon(['notes', 'create', '--help']);
    expect(code).toBe(0);
    const own = stdout.indexOf('  --body <text>');
    const examples = stdout.indexOf('\nExamples:\n');
    const globals = stdout.indexOf('\nGlobal options (`mon help options` describes them):\n');
    expect(own).toBeGreaterThan(0);
    expect(examples).toBeGreaterThan(own);
    expect(globals).toBeGreaterThan(examples);
    const block = stdout.slice(globals).trim().split('\n').slice(1);
    expect(block.length).toBeLessThanOrEqual(5);
    expect(block.join(' ')).toContain('--base-url <url>');
    expect(block.join(' ')).toContain('--no-color');
    // The global options' descriptions are in `mon --help` only.
    expect(stdout).not.toContain('Global Options:');
    expect(stdout).not.toContain('per-request timeout');
  });

  it('`mon api --help` keeps each paragraph whole: lines break only where the width asks', async () => {
    const { stdout } = await runMon(['api', '--help']);
    expect(stdout).toContain(
      'Fields go to the query string for GET and to the form body otherwise; keys are\nsent as typed (note[body]=hi, platform[]=mac), api_key is added from the\nprofile.\n',
    );
    expect(stdout).not.toMatch(/sent as typed\n|printed as\n|204 prints\nnothing/);
  });

  it('`mon --help` fits 80 columns', async () => {
    const { stdout } = await runMon(['--help']);
    expect(stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });

  // Every command's help, in-process: no line over 80 columns (long examples continue with `\`).
  const program = fullProgram({ writeOut: () => undefined, writeErr: () => undefined });
  const commands: Command[] = [];
  const collect = (command: Command) => {
    for (const sub of command.commands) {
      if (!sub.name().startsWith('_')) commands.push(sub);
      collect(sub);
    }
  };
  collect(program);
  it.each(commands.map((command) => [command.name(), command] as const))(
    '`%s --help` fits 80 columns',
    (_name, command) => {
      let text = '';
      command.configureOutput({ writeOut: (chunk) => (text += chunk) });
      command.outputHelp();
      const long = text.split('\n').filter((line) => line.length > 80);
      expect(long).toEqual([]);
    },
  );
});

describe('errors with a hint (#12 item 17)', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it.each([
    [
      ['plugin', 'mute', '--timed', 'pr_x'],
      "mon: --timed took 'pr_x' as its value, so <uid> is missing — put <uid> first (`mon plugin mute pr_x --timed`) or give --timed its value after it\n",
    ],
    [
      ['computers', 'list', '--status', 'mising'],
      "mon: --status: 'mising' is not one of visible, hidden, missing, pending_rekey, pending_removal, has_muted_plugin — did you mean --status missing?\n",
    ],
    [
      ['-o', 'yaml', 'groups', 'list'],
      "mon: -o/--output: 'yaml' is not one of table, json, ndjson, csv, tsv, openmetrics — e.g. -o json, or -o csv for a spreadsheet\n",
    ],
    [
      ['groups', 'list', '-o', 'jsn'],
      "mon: -o/--output: 'jsn' is not one of table, json, ndjson, csv, tsv, openmetrics — did you mean -o json?\n",
    ],
    [
      ['expirations', 'list', '--expires-start', '2026-02-30', '--expires-end', '2026-03-31'],
      "mon: --expires-start: '2026-02-30' does not exist: February 2026 has 28 days — the form is right, check the day\n",
    ],
    [['computers', 'get'], 'mon: missing <client-id> — usage: mon computers get <client-id>\n'],
    [
      ['computers', 'list', '--status'],
      'mon: --status needs a value — one of visible, hidden, missing, pending_rekey, pending_removal or has_muted_plugin, e.g. --status visible\n',
    ],
    [['notes', 'lsit'], "mon: notes has no command 'lsit' — did you mean `mon notes list`?\n"],
    [
      ['--timeout', 'abc', 'groups', 'list'],
      "mon: --timeout: must be a number of seconds above 0 and at most 3600 (got 'abc') — `mon help options` describes the global options\n",
    ],
  ])('`mon %j`: one line with its hint, exit 2, no request', async (args, line) => {
    const result = await runMain(args, { env });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: line });
    expect(sandbox.requests).toEqual([]);
  });

  it('--timed with a time in the past shows the time read and now', async () => {
    const result = await runMain(['plugin', 'mute', 'pr_x', '--timed', '1000000000'], { env });
    expectOneLineWithHint(result);
    expect(result.stderr).toMatch(
      /^mon: --timed: must lie in the future: read as 2001-09-09T01:46:40Z, and now is \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ — give a duration such as 2h, or a later time\n$/,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('--platform takes a comma-separated list as it takes the flag repeated', async () => {
    const [listed, repeated] = [
      await runMain(['computers', 'list', '--platform', 'mac,linux', '--count'], { env }),
      await runMain(['computers', 'list', '--platform', 'mac', '--platform', 'linux', '--count'], { env }),
    ];
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toBe(repeated.stdout);
    expect(sandbox.requests[0]!.query).toEqual(sandbox.requests[1]!.query);
    expect(sandbox.requests[0]!.query['platform[]']).toEqual(['mac', 'linux']);
  });

  it.each([
    [
      ['groups', 'get', 'g_nosuch'],
      /^mon: GET \/v2\.5\/groups\/g_nosuch: 404 [^\n]* — `mon groups list` lists what exists\n$/,
    ],
    [
      ['notes', 'get', 'n_nosuch'],
      /^mon: GET \/v2\.5\/notes\/n_nosuch: 404 [^\n]* — `mon notes list` lists what exists\n$/,
    ],
    [
      ['plugin', 'unmute', 'pr_nosuch'],
      /^mon: PUT \/v2\.5\/plugin_results\/pr_nosuch: 404 [^\n]* — `mon plugin list <client-id>` lists what exists\n$/,
    ],
  ])('a 404 from `mon %j` says what was looked for and how to list what exists (exit 4)', async (args, line) => {
    const result = await runMain(args, { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(line);
  });

  // The pass over every command: a mistyped option, a missing argument and a wrong value each
  // give one line with a hint, exit 2, and send nothing.
  const verbs: [string[], VerbSpec][] = COMMANDS.flatMap((spec): [string[], VerbSpec][] =>
    isResource(spec)
      ? spec.verbs.map((verb): [string[], VerbSpec] => [[spec.name, verb.name], verb])
      : [[[spec.name], spec]],
  ).filter(([, verb]) => !verb.hidden);
  const placeholder = (arg: ArgSpec) =>
    arg.rule?.type === 'uid'
      ? `${arg.rule.prefix}1`
      : arg.name === 'method'
        ? 'GET'
        : arg.name === 'path'
          ? '/users'
          : arg.name === 'shell'
            ? 'bash'
            : 'x1';
  const required = (verb: VerbSpec) => (verb.args ?? []).filter((arg) => !arg.optional).map(placeholder);
  const wrong = (rule: Rule): string | undefined =>
    ({
      text: 'max' in rule ? 'x'.repeat((rule as { max: number }).max + 1) : undefined,
      email: 'not-an-address',
      date: '2026-02-30',
      uid: 'zz_1',
      int: 'many',
      url: 'ftp:x',
      when: 'soon',
      since: 'soon',
      duration: 'soon',
      range: 'x:y:z',
      name: 'Not A Name!',
      rate: '400',
    })[rule.type];
  const badValue = (verb: VerbSpec): [OptionSpec, string] | undefined => {
    for (const option of optionsOf(verb)) {
      if (option.choices) return [option, 'nosuch'];
      const value = option.rule ? wrong(option.rule) : undefined;
      if (value !== undefined) return [option, value];
    }
    return undefined;
  };
  const cases = verbs.flatMap(([path, verb]) => {
    const name = path.join(' ');
    const rows: [string, string[]][] = [
      [`${name}: a mistyped option`, [...path, ...required(verb), '--nosuch-option', 'x']],
    ];
    if (required(verb).length > 0) rows.push([`${name}: a missing argument`, [...path]]);
    const bad = badValue(verb);
    if (bad)
      rows.push([
        `${name}: a wrong value for ${optionLabel(bad[0])}`,
        [...path, ...required(verb), optionLabel(bad[0]), bad[1]],
      ]);
    return rows;
  });

  it('the pass covers every command', () => {
    expect(new Set(cases.map(([label]) => label.split(':')[0])).size).toBe(verbs.length);
  });

  it.each(cases)('%s: one line with a hint, exit 2, no request', async (_label, args) => {
    const result = await runMain(args, { env });
    expectOneLineWithHint(result);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("an option's value that is another option of the command", () => {
  it.each([
    [['groups', 'find-or-create', '--name', '--build-installers'], '--name', '--build-installers'],
    [['computers', 'update', 'C1', '--custom-name', '--beacon-reporting'], '--custom-name', '--beacon-reporting'],
    [['computers', 'list', '--serial-number', '--count'], '--serial-number', '--count'],
    [['computers', 'list', '--group', '--all'], '--group', '--all'],
    [['computers', 'list', '--group', '--status=missing'], '--group', '--status=missing'],
  ])('%j: exit 2 naming both, nothing sent', async (args, option, value) => {
    const requests: string[] = [];
    const { startFakeApi } = await import('../helpers/fake-api.js');
    const api = await startFakeApi((req) => void requests.push(req.path));
    try {
      const result = await runMain(args, { env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_option_value_123456' } });
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `mon: ${option} needs a value, and '${value}' is an option — give ${option} its value, or write ${option}=${value} for a value that starts with '-'\n`,
      });
      expect(requests).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('a value given attached (--name=--x) is taken as it is', async () => {
    const result = await runMain(['--dry-run', 'groups', 'find-or-create', '--name=--build-installers'], {
      env: { MON_BASE_URL: 'http://127.0.0.1:9', MON_API_KEY: 'k_option_value_123456' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('group[name]=--build-installers');
  });
});

describe('a uid of another kind, in the fleet selectors as in the endpoint commands', () => {
  it.each([
    [
      ['alerts', '--group', 'c_1'],
      "--group: 'c_1' is a computer uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      ['status', '--group', 'Acme', '--group', 'ep_1'],
      "--group: 'ep_1' is an expiration product uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      ['report', '--group', 'n_1'],
      "--group: 'n_1' is a note uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      ['plugin', 'mute', '--group', 'c_1', '--timed', '--yes'],
      "--group: 'c_1' is a computer uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      ['alerts', '--computer', 'u_1'],
      "--computer: 'u_1' is a user uid, not a computer — give the computer's client id or c_ uid",
    ],
    [
      ['computers', 'list', '--group', 'c_1'],
      "--group: 'c_1' is a computer uid, not a group — give the group's uid (g_…), slug or name",
    ],
  ])('%j: exit 2, nothing sent', async (args, message) => {
    const requests: string[] = [];
    const { startFakeApi } = await import('../helpers/fake-api.js');
    const api = await startFakeApi((req) => void requests.push(req.path));
    try {
      const result = await runMain(args, { env: { MON_BASE_URL: api.url, MON_API_KEY: 'k_other_kind_123456' } });
      expect(result).toEqual({ code: 2, stdout: '', stderr: `mon: ${message}\n` });
      expect(requests).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
