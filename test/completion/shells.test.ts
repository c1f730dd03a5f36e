import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProgram } from '../helpers/programs.js';
import { bound } from '../helpers/slow.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN } from '../helpers/run-mon.js';

/**
 * The committed scripts (completions/, checked against the tree by generated.test.ts), loaded
 * in the real shells, which are asked what they offer. .ci/run installs bash, zsh and fish
 * when they are missing. The scripts run `mon` from PATH for profile names, so a temp folder
 * holding a `mon` link to bin/mon comes first on PATH, with profiles in a temp config folder.
 * Each case is a shell of its own (zsh on a pseudo terminal mostly waits), so they run at once.
 */
const COMPLETIONS = fileURLToPath(new URL('../../completions/', import.meta.url));
const ZSH_CAPTURE = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url));

const STATUSES = ['visible', 'hidden', 'missing', 'pending_rekey', 'pending_removal', 'has_muted_plugin'];

let work: string;
let env: Record<string, string>;
/** compinit's dump, with _mon in it: written once, before the cases read it at once. */
let zshDump: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mon-completion-'));
  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(MON_BIN, join(bin, 'mon'));
  env = {
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    HOME: work,
    MON_CONFIG_DIR: join(work, 'config'),
    LANG: 'C.UTF-8',
  };
  for (const [name, url] of [
    ['acme', 'https://acme.example.com'],
    ['beta-2', 'https://beta.example.com'],
  ]) {
    const added = await runMain(['profile', 'add', name!, '--base-url', url!, '--api-key-stdin'], {
      input: `k_${name}_secret_0123456789`,
      env: { MON_CONFIG_DIR: env.MON_CONFIG_DIR },
    });
    expect(added.code, added.stderr).toBe(0);
  }
  zshDump = join(work, 'zcompdump');
  if (SHELLS.some(([shell]) => shell === 'zsh'))
    await run('zsh', ['-f', '-c', `fpath=(${COMPLETIONS} $fpath); autoload -U compinit; compinit -u -d ${zshDump}`]);
  // The live cache of acme's names, fresh: a Tab reads it and starts no refresh.
  const cache = join(env.MON_CONFIG_DIR!, 'completion');
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(cache, 'acme.json'),
    JSON.stringify({
      saved_at: Date.now(),
      groups: ['Acme Design', "O'Brien & Sons", 'Zeta'],
      computers: ['C0FFEE-01'],
      plugins: ['Disk Space', 'SMART Status'],
      notes: ['n_abc'],
      expirations: ['e_xyz'],
    }),
    { mode: 0o600 },
  );
  // Another account's names: a line naming it (-p beta-2, --sandbox, --base-url) completes from them.
  const other = (file: string, tag: string) =>
    writeFileSync(
      join(cache, file),
      JSON.stringify({
        saved_at: Date.now(),
        groups: [`${tag}-Group`],
        computers: [`${tag}-PC-01`],
        plugins: [],
        notes: [],
        expirations: [],
      }),
      { mode: 0o600 },
    );
  other('beta-2.json', 'Beta');
  other('@sandbox.json', 'Sandbox');
  other('@gamma.example.com.json', 'Gamma');
  // zsh's compinit on a loaded machine: a bound for a hang, not a measure.
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `extra` changes the environment of this one shell (the cases run at once). */
function run(command: string, args: string[], extra: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { env: { ...env, ...extra }, encoding: 'utf8', timeout: bound(30_000) },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} exited ${error.code ?? error.signal}: ${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

type Complete = (line: string, extra?: Record<string, string>) => Promise<string[]>;

/** Completions offered by bash: the function `complete -p mon` names, called as bash calls it. */
async function bash(line: string, extra?: Record<string, string>): Promise<string[]> {
  const script = `
source "$1"
spec=$(complete -p mon) || exit 9
fn=\${spec#*-F }; fn=\${fn%% *}
line=$2
read -ra COMP_WORDS <<< "$line"
[[ $line == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMP_LINE=$line; COMP_POINT=\${#line}
"$fn" mon "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return words(
    await run('bash', ['--norc', '--noprofile', '-c', script, 'bash', join(COMPLETIONS, 'mon.bash'), line], extra),
  );
}

/** Completions offered by zsh's completion system, with _mon autoloaded from completions/. */
async function zsh(line: string, extra?: Record<string, string>): Promise<string[]> {
  const out = join(work, `zsh-${Math.random().toString(36).slice(2)}.txt`);
  await run('zsh', ['-f', ZSH_CAPTURE, COMPLETIONS, out, line, zshDump], extra);
  return words(await readFile(out, 'utf8'));
}

/** Completions offered by fish (`complete -C`), descriptions cut off. */
async function fish(line: string, extra?: Record<string, string>): Promise<string[]> {
  return words(
    (
      await run(
        'fish',
        ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', join(COMPLETIONS, 'mon.fish'), line],
        extra,
      )
    ).replace(/\t[^\n]*/g, ''),
  );
}

function words(text: string): string[] {
  return [...new Set(text.split('\n').filter((word) => word !== '' && word !== '<done>'))].sort();
}

const sorted = (list: string[]) => [...list].sort();

/** What every shell must offer, by command line. */
const CASES: [line: string, expected: string[]][] = [
  ['mon comp', ['completion', 'computers']],
  ['mon computers list --status ', STATUSES],
  ['mon --profile ', ['acme', 'beta-2']],
  ['mon -p b', ['beta-2']],
  ['mon profile use ', ['acme', 'beta-2']],
  ['mon profiles rm a', ['acme']],
  ['mon --profiles ', ['acme', 'beta-2']],
  ['mon computers list --json --status mi', ['missing']],
  ['mon -o json computers li', ['list']],
  ['mon computers list --plat', ['--platform']],
  ['mon computers sh', ['show']],
  ['mon groups list --visibility ', ['hidden', 'visible']],
  ['mon --output ', ['csv', 'json', 'ndjson', 'openmetrics', 'table', 'tsv']],
  ['mon completion ', ['bash', 'fish', 'zsh']],
  ['mon help comp', ['completion', 'computers']],
  ['mon help ex', ['exit-codes', 'expiration-manufacturers', 'expiration-products', 'expirations']],
  ['mon help fo', ['formats']],
];

const SHELLS = (
  [
    ['bash', bash],
    ['zsh', zsh],
    ['fish', fish],
  ] as [string, Complete][]
).filter(([shell]) => hasProgram(shell));

/** The account's names in the live cache, as each shell must offer them (bash escapes them; zsh and fish quote on insertion). */
const LIVE_CASES: [line: string, expected: string[]][] = [
  ['mon computers list --group ', ['Acme Design', "O'Brien & Sons", 'Zeta']],
  ['mon alerts --group O', ["O'Brien & Sons"]],
  ['mon alerts --plugin Di', ['Disk Space']],
  ['mon computers get ', ['C0FFEE-01']],
  ['mon notes get ', ['n_abc']],
  ['mon expirations delete ', ['e_xyz']],
];

/** The names of the account the line names, not the default profile's (acme). */
const ACCOUNT_CASES: [line: string, expected: string[]][] = [
  ['mon -p beta-2 computers get ', ['Beta-PC-01']],
  ['mon --profile beta-2 alerts --group Beta', ['Beta-Group']],
  ['mon --profile=beta-2 computers get ', ['Beta-PC-01']],
  ['mon computers get -p beta-2 ', ['Beta-PC-01']],
  ['mon --sandbox computers get ', ['Sandbox-PC-01']],
  ['mon --base-url https://gamma.example.com computers get ', ['Gamma-PC-01']],
  ['mon -p acme computers get ', ['C0FFEE-01']],
];

describe.concurrent.each(SHELLS)('%s completion', (shell, complete) => {
  it.each(ACCOUNT_CASES)('names from the account on the line: `%s`', async (line, expected) => {
    expect(await complete(line)).toEqual(sorted(expected));
  });

  it.each(CASES)('after `%s`', async (line, expected) => {
    expect(await complete(line)).toEqual(sorted(expected));
  });

  it('completes the name after the last comma of --profiles, the names before it kept', async () => {
    // zsh keeps what comes before the comma on the line (_sequence's ignored prefix) and offers
    // the name alone; bash and fish offer the whole word.
    expect(await complete('mon --profiles acme,b')).toEqual([shell === 'zsh' ? 'beta-2' : 'acme,beta-2']);
  });

  it.each(LIVE_CASES)(
    "completes the account's own names from the live cache after `%s`: spaces and quotes kept, quoted for the shell",
    async (line, names) => {
      const asTyped = shell === 'bash' ? names.map((name) => name.replace(/([ '&"\\])/g, '\\$1')) : names;
      expect(await complete(line)).toEqual(sorted(asTyped));
    },
  );

  it('offers a repeatable option again; zsh, which can tell, no option that mon refuses twice', async () => {
    // bash and fish offer every option of the command wherever it stands.
    expect(await complete('mon computers list --per-page 10 --per')).toEqual(shell === 'zsh' ? [] : ['--per-page']);
    expect(await complete('mon -o csv --js')).toEqual(shell === 'zsh' ? [] : ['--json']);
    expect(await complete('mon computers list --platform mac --plat')).toEqual(['--platform']);
  });

  it('offers no profile names and no error when there is no config', async () => {
    expect(await complete('mon --profile ', { MON_CONFIG_DIR: join(work, 'no-config-here') })).toEqual([]);
  });
});

describe('the bash script', () => {
  it.runIf(hasProgram('shellcheck'))('passes shellcheck (completions/mon.bash, as installed)', () => {
    const script = fileURLToPath(new URL('../../completions/mon.bash', import.meta.url));
    const run = spawnSync('shellcheck', ['--shell=bash', script], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });
});
