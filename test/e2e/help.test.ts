import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { fullProgram } from '../../scripts/generated-files.js';
import { buildTree, walk } from '../../src/completion/tree.js';
import { AccountsFailedError, EXIT_CODES, UsageError } from '../../src/errors.js';
import { OUTPUT_FORMATS } from '../../src/output/types.js';
import { ENVIRONMENT, TOPIC_NAMES, TOPICS } from '../../src/spec/topics.js';
import { HELP_WIDTH } from '../../src/help.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';

const root = new URL('../../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };

describe('help', () => {
  it('`mon` alone puts the commands first, then the help topics, the global flags and examples, on one screen (40 lines)', async () => {
    // bin/mon prints the help the build saved, without loading the bundle: a real process.
    const { code, stdout, stderr } = await runMon([]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      /^Usage: mon \[global options\] <command> \[<verb>\] \[arguments\] \[options\]\n\nAdminister the Endpoint Monitoring Service .*\n\nCommands:\n/,
    );
    expect(stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(40);
    expect(Math.max(...stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    for (const spec of COMMANDS.filter((candidate) => !('hidden' in candidate && candidate.hidden)))
      expect(stdout).toMatch(new RegExp(`^  ${spec.name} +\\S`, 'm'));
    expect(stdout).not.toContain('__complete');
    // A topic named like a command is named on the heading (`mon help sandbox`), not listed again.
    const heading = /^Help topics \(mon help <topic\|command>; also ([a-z, -]+)\):$/m.exec(stdout)!;
    const namedOnHeading = heading[1]!.split(', ');
    expect(
      namedOnHeading.every((name) => TOPIC_NAMES.includes(name) && COMMANDS.some((spec) => spec.name === name)),
    ).toBe(true);
    const topics = stdout.slice(heading.index);
    for (const name of TOPIC_NAMES.filter((topic) => !namedOnHeading.includes(topic)))
      expect(topics).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(stdout).toContain('Global options (mon help options describes them):\n  -p, --profile <name>');
    expect(stdout).toMatch(/\nTry it without an account: mon --sandbox \S.*\n$/);
  });

  it("the root help and a resource's help, word for word: the first screens a person reads", async () => {
    const rootHelp = await runMain(['--help']);
    expect(rootHelp.code).toBe(0);
    expect(rootHelp.stdout).toMatchInlineSnapshot(`
      "Usage: mon [global options] <command> [<verb>] [arguments] [options]

      Administer the Endpoint Monitoring Service (API v2.5) from the command line.

      Commands:
        groups                    List, show, find-or-create and update groups
        computers                 List, show and update monitored computers
        expirations               List, show, create, update and delete expirations
        expiration-manufacturers  List, show, create, rename and delete manufacturers
        expiration-products       List, show, create, rename and delete products
        notes                     List, show, create, update and delete notes
        plugin                    A computer's plugin results; mute and unmute them
        users                     List the people with access to the account
        alerts                    Plugin results that need attention, account-wide
        status                    What needs attention now, or --check for Nagios
        metrics                   Serve the figures of status to Prometheus
        report                    A customer report as one self-contained HTML file
        history                   Daily snapshots per account: list, export, forget
        events                    Receive the service's webhooks: show, hand on
        changes                   The saved states of --changes NAME: list, forget
        api                       Send any request to the API, print the JSON answer
        profile                   Save, choose and check accounts (subdomain + key)
        sandbox                   Serve the v2.5 API with demo data, no account needed
        completion                Print the completion script for bash, zsh or fish

      Help topics (mon help <topic|command>; also events, sandbox):
        options                   The global options, before or after any command
        environment               The environment variables mon reads
        exit-codes                What each exit code means; which are worth a retry
        formats                   Output formats (-o), --fields, --no-header and --jq
        fleet                     alerts, status, metrics, bulk mutes, --changes

      Global options (mon help options describes them):
        -p, --profile <name>  --profiles <names>  --all-profiles  --parallel <n>
        --base-url <url>  --sandbox  -o, --output <format>  --json  --jq <expression>
        --fields <keys>  --output-file <path>  --no-header  --expand <key>
        --timeout <seconds>  --retries <n>  --dry-run  -y, --yes  -q, --quiet
        -v, --verbose  --no-color

      Try it without an account: mon --sandbox computers list --status missing
      "
    `);
    const resource = await runMain(['help', 'groups']);
    expect(resource.code).toBe(0);
    expect(resource.stdout).toMatchInlineSnapshot(`
      "Usage: mon groups|group [options] [command]

      List, show, find-or-create and update groups

      Options:
        -h, --help                show help

      Commands:
        list|ls [options]         List groups, sorted by name
        get|show <group>          Show one group by uid, slug or name
        find-or-create [options]  Return the group with this name, creating it when
                                  there is none
        update [options] <group>  Change a group's name, description, reference e-mail
                                  or contact menu

      Examples:
        $ mon groups list
        $ mon groups get g_3f9a2c
        $ mon groups find-or-create --name "Acme Design" --build-installers
        $ mon groups update g_3f9a2c --description "Design studio, 2nd floor"

      Global options (\`mon help options\` describes them):
        -p, --profile <name>  --profiles <names>  --all-profiles  --parallel <n>
        --base-url <url>  --sandbox  -o, --output <format>  --json  --jq <expression>
        --fields <keys>  --output-file <path>  --no-header  --expand <key>
        --timeout <seconds>  --retries <n>  --dry-run  -y, --yes  -q, --quiet
        -v, --verbose  --no-color
      "
    `);
  });

  it('`mon help options` describes every global option with its choices and defaults', async () => {
    const { code, stdout, stderr } = await runMain(['help', 'options']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Global options: accepted before or after any command\n/);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      '-o, --output <format> output format (choices: "table", "json", "ndjson", "csv", "tsv", "openmetrics", default: "table")',
    );
    for (const flag of ['--profile <name>', '--all-profiles', '--jq <expression>', '--timeout <seconds>', '--no-color'])
      expect(stdout).toContain(flag);
  });

  it('`mon help exit-codes` prints every row of the exit-code table the errors take their codes from, and the Nagios exception', async () => {
    const { code, stdout, stderr } = await runMain(['help', 'exit-codes']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const flat = stdout.replace(/\s+/g, ' ');
    for (const row of EXIT_CODES) {
      expect(stdout).toMatch(new RegExp(`^  ${row.code.replace(/[/]/g, '\\/')} +\\S`, 'm'));
      expect(flat).toContain(row.meaning);
    }
    expect(flat).toContain('0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN');
    expect(new UsageError('x').exitCode).toBe(2);
    expect(new AccountsFailedError('x').exitCode).toBe(9);
  });

  it.each(TOPICS.map((topic) => [topic.name, topic] as const))(
    '`mon help %s` prints the topic, wrapped at 80 columns but for examples',
    async (name, topic) => {
      const { code, stdout, stderr } = await runMain(['help', name]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout.startsWith(`${topic.title}\n\n`)).toBe(true);
      for (const line of stdout.split('\n').filter((text) => !text.startsWith('  $ ')))
        expect(line.length, line).toBeLessThanOrEqual(80);
    },
  );

  it('`mon help environment` names every variable of the table; `mon help formats` every output format', async () => {
    const environment = (await runMain(['help', 'environment'])).stdout;
    for (const variable of ENVIRONMENT) expect(environment).toContain(variable.name);
    const formats = (await runMain(['help', 'formats'])).stdout;
    for (const format of OUTPUT_FORMATS) expect(formats).toMatch(new RegExp(`^  ${format} +\\S`, 'm'));
    expect(formats).toContain('--fields');
    expect(formats).toContain('--jq EXPR');
  });

  it('`mon help sandbox` is the topic; `mon sandbox --help` and `mon help sandbox serve` the command', async () => {
    expect((await runMain(['help', 'sandbox'])).stdout).toMatch(/^The sandbox\n/);
    expect((await runMain(['help', 'events'])).stdout).toMatch(/^The service's webhooks: mon events listen\n/);
    expect((await runMain(['sandbox', '--help'])).stdout).toMatch(/^Usage: mon sandbox/);
    expect((await runMain(['help', 'sandbox', 'serve'])).stdout).toMatch(/^Usage: mon sandbox serve/);
  });

  it('`mon help computers` lists the verbs with their aliases and shows examples', async () => {
    const { code, stdout, stderr } = await runMain(['help', 'computers']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      /^Usage: mon computers\|computer \[options\] \[command\]\n\nList, show and update monitored computers\n/,
    );
    expect(stdout).toMatch(/^ {2}list\|ls \[options\] +List computers/m);
    expect(stdout).toMatch(/^ {2}get\|show <client-id> +Show one computer/m);
    expect(stdout).toContain('Examples:\n  $ mon computers list --status missing\n');
  });

  it('`mon computers list --help` shows every option with its choices, limits and defaults, then examples', async () => {
    const { code, stdout, stderr } = await runMain(['computers', 'list', '--help']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const flat = stdout.replace(/\s+/g, ' ');
    expect(flat).toContain(
      '--status <status> only computers in this state (choices: "visible", "hidden", "missing", "pending_rekey", "pending_removal", "has_muted_plugin")',
    );
    expect(flat).toContain(
      '--order <order> sort order (default: last_reported_desc) (choices: "last_reported_desc", "reported_desc", "created_desc")',
    );
    expect(flat).toContain('--serial-number <serial> only this serial number (max 255 characters)');
    expect(flat).toContain('--per-page <n> items per page, 1..100');
    expect(stdout).toContain('Examples:\n  $ mon computers list --status missing\n');
  });

  it('help names the limit of text and email values, the range of numbers, defaults, and each --no- form', async () => {
    const update = (await runMain(['computers', 'update', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(update).toContain('--reference-email <email> reference e-mail address (max 191 characters)');
    expect(update).toContain('--no-beacon-reporting do not enable beacon reporting');
    expect(update).toContain(
      '--beacon-missing-threshold <minutes> minutes before a beacon warning (choices: "2", "5", "10", "15", "20", "30")',
    );
    const serve = (await runMain(['sandbox', 'serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(serve).toContain('--port <port> port to listen on (default: any free port) (0..65535)');
    const create = (await runMain(['expirations', 'create', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(create).toContain(
      '--renewable mark it renewable (default: not renewable) --no-renewable do not mark it renewable',
    );
  });

  it('`mon help <command>` prints what `<command> --help` prints', async () => {
    const [viaHelp, viaFlag] = await Promise.all([runMain(['help', 'profile']), runMain(['profile', '--help'])]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  // The whole tree in-process: every command has a summary and examples (house-style).
  const nodes = walk(buildTreeWithHelp().tree).filter((node) => node.path.length > 0 && node.name !== 'help');
  describe.each(nodes.map((node) => [['mon', ...node.path].join(' '), node] as const))('`%s --help`', (_name, node) => {
    const text = buildTreeWithHelp().helpOf(node.path);
    it('has a description and examples', () => {
      expect(text).toMatch(new RegExp(`^Usage: mon ${node.path.slice(0, -1).join(' ')}`));
      expect(text.replace(/\s+/g, ' ')).toContain(` ${node.summary} `);
      expect(text).toMatch(/\nExamples:\n {2}\$ mon \S/);
    });
    it('wraps its description once: each line of prose is as full as the width allows', () => {
      // The description runs from after the summary to the first section (Arguments:, Options:...).
      const body = text.split('\n\n').slice(2).join('\n\n');
      const description = body.slice(0, body.search(/^(Arguments|Options|Commands):$/m));
      const lines = description.split('\n');
      for (let i = 0; i + 1 < lines.length; i++) {
        const [line, next] = [lines[i]!, lines[i + 1]!];
        // Two lines of one paragraph: the next one's first word would not have fitted.
        if (line && next && !/^\s/.test(line) && !/^\s/.test(next))
          expect(`${line} ${next.split(' ')[0]}`.length, `${line}\n${next}`).toBeGreaterThan(HELP_WIDTH);
      }
    });
  });
});

describe('mistakes', () => {
  it('an unknown command exits 2 and suggests the nearest one', async () => {
    const { code, stdout, stderr } = await runMain(['computrs']);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: "mon: unknown command 'computrs' — did you mean `mon computers`?\n",
    });
  });

  it('an unknown verb exits 2 and suggests the nearest one', async () => {
    const { code, stdout, stderr } = await runMain(['computers', 'lsit']);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: "mon: computers has no command 'lsit' — did you mean `mon computers list`?\n",
    });
  });

  it('an unknown option exits 2, suggests the nearest one and sends nothing', async () => {
    // A base URL that refuses connections: a request would exit 8, not 2.
    const { code, stdout, stderr } = await runMain(['computers', 'list', '--stauts', 'x'], {
      env: { MON_BASE_URL: 'http://127.0.0.1:9', MON_API_KEY: 'k_test_0123456789' },
    });
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: "mon: unknown option '--stauts' for computers list — did you mean --status?\n",
    });
  });
});

describe('version', () => {
  it.each([['--version'], ['-V']])('`mon %s` prints the package version', async (flag) => {
    // bin/mon answers from package.json, without loading the bundle: a real process.
    const { code, stdout, stderr } = await runMon([flag]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('`mon version` prints what --version prints (as gh, kubectl and doctl take it), with global options too', async () => {
    for (const words of [['version'], ['--sandbox', 'version'], ['version', '--no-color']]) {
      const { code, stdout, stderr } = await runMon(words);
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('mon completion', () => {
  it.each([
    ['bash', 'mon.bash'],
    ['zsh', '_mon'],
    ['fish', 'mon.fish'],
  ])('`mon completion %s` prints completions/%s', async (shell, file) => {
    const { code, stdout, stderr } = await runMain(['completion', shell]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout === readFileSync(new URL(`completions/${file}`, root), 'utf8'), 'run npm run generate').toBe(true);
  });

  it('without a shell exits 2 with one line naming the three and what to type; --help says how to install each', async () => {
    const { code, stdout, stderr } = await runMain(['completion']);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mon: completion needs one of bash, zsh or fish — e.g. `mon completion bash`; `mon completion --help` says what each does\n',
    });
    const help = await runMain(['completion', '--help']);
    expect(help.stdout).toMatch(/^ {2}bash +Print the bash completion script$/m);
    expect(help.stdout).toMatch(/^ {2}zsh +Print the zsh completion script$/m);
    expect(help.stdout).toMatch(/^ {2}fish +Print the fish completion script$/m);
    expect(help.stdout).toContain('$ mon completion bash > ~/.local/share/bash-completion/completions/mon');
    expect(help.stdout).toContain('$ mon completion fish > ~/.config/fish/completions/mon.fish');
  });

  it('`mon completion zsh --help` says how to install it', async () => {
    const { code, stdout } = await runMain(['completion', 'zsh', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('$fpath');
    expect(stdout).toContain('mon completion zsh > ~/.zfunc/_mon');
  });
});

describe('mon __complete profiles (run by the completion scripts)', () => {
  it('prints nothing and exits 0 without a config', async () => {
    expect(await runMain(['__complete', 'profiles'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('prints the saved names, sorted, one a line, and never a key', async () => {
    const dir = tempConfigDir();
    for (const name of ['zeta', 'acme']) {
      const added = await runMain(
        ['profile', 'add', name, '--base-url', `https://${name}.example.com`, '--api-key-stdin'],
        { input: `k_${name}_secret_0123456789`, env: { MON_CONFIG_DIR: dir } },
      );
      expect(added.code, added.stderr).toBe(0);
    }
    const { code, stdout, stderr } = await runMain(['__complete', 'profiles'], { env: { MON_CONFIG_DIR: dir } });
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'acme\nzeta\n', stderr: '' });
  });

  it('stays silent on a broken config and prints no name a shell could trip on', async () => {
    const broken = tempConfigDir();
    writeFileSync(join(broken, 'config.json'), '{ not json');
    expect(await runMain(['__complete', 'profiles'], { env: { MON_CONFIG_DIR: broken } })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const odd = tempConfigDir();
    mkdirSync(odd, { recursive: true });
    writeFileSync(
      join(odd, 'config.json'),
      JSON.stringify({ profiles: { ok: { apiKey: 'k' }, '$(rm -rf ~)': { apiKey: 'k' }, 'a b': {} } }),
    );
    expect(await runMain(['__complete', 'profiles'], { env: { MON_CONFIG_DIR: odd } })).toMatchObject({
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });
  });

  it('prints nothing for what it does not know, and is absent from help', async () => {
    expect(await runMain(['__complete', 'groups'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await runMain(['help'])).stdout).not.toContain('__complete');
  });
});

/** The tree with help captured per command, built once. */
let cached: { tree: ReturnType<typeof buildTree>; helpOf: (path: readonly string[]) => string } | undefined;
function buildTreeWithHelp() {
  if (cached) return cached;
  let captured = '';
  const tree = buildTree(
    fullProgram({ writeOut: (text) => (captured += text), writeErr: (text) => (captured += text) }),
  );
  const find = (path: readonly string[]): Command => {
    let node = tree;
    for (const name of path) node = node.commands.find((sub) => sub.name === name)!;
    return node.command;
  };
  cached = {
    tree,
    helpOf: (path) => {
      captured = '';
      find(path).outputHelp();
      return captured;
    },
  };
  return cached;
}
