import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN } from '../helpers/run-mon.js';

/**
 * bash completion of the account's names after a quote the user opened, in an interactive bash
 * on a pseudo-terminal (`script`), as a person types: the line with a Tab, then Enter. `mon` is
 * a function there that prints each argument it gets, so what the shell made of the completed
 * line is seen word for word; a line left with an open quote never runs (bash waits for more)
 * and the case fails on the hang bound. The names hold ', ", $, `, $(…), \, spaces and &.
 */
const SCRIPT = fileURLToPath(new URL('../../completions/mon.bash', import.meta.url));
const HAS_BASH = spawnSync('sh', ['-c', 'command -v bash && command -v script']).status === 0;
if (!HAS_BASH)
  process.stderr.write('test/completion/bash-quotes: bash or script is not installed, its cases are skipped\n');

const NAMES = ["O'Brien & Sons", 'Acme $ales `uname` "q" \\ end', '$(touch pwned) & co'];

let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mon-bash-quotes-'));
  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(MON_BIN, join(bin, 'mon'));
  env = {
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    HOME: work,
    MON_CONFIG_DIR: join(work, 'config'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    INPUTRC: '/dev/null',
  };
  const added = await runMain(['profile', 'add', 'acme', '--base-url', 'https://acme.example.com', '--api-key-stdin'], {
    input: 'k_acme_secret_0123456789',
    env: { MON_CONFIG_DIR: env.MON_CONFIG_DIR },
  });
  expect(added.code, added.stderr).toBe(0);
  const cache = join(env.MON_CONFIG_DIR!, 'completion');
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(cache, 'acme.json'),
    JSON.stringify({ saved_at: Date.now(), groups: NAMES, computers: [], plugins: [], notes: [], expirations: [] }),
    { mode: 0o600 },
  );
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Types `line`, a Tab and Enter in an interactive bash with the script loaded; the words `mon` got. */
function typed(line: string): Promise<{ args: string[] | undefined; screen: string }> {
  const cwd = mkdtempSync(join(work, 'cwd-'));
  const child = spawn('script', ['-qec', 'bash --norc --noprofile -i', '/dev/null'], { env, cwd });
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
  child.stdin.write(`source ${SCRIPT}; mon() { printf 'ARG<%s>\\n' "$@"; echo END-$((6*7)); }\r`);
  child.stdin.write(`${line}\t\r`);
  child.stdin.write('exit\r');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const text = screen.replace(/\r/g, '');
      const ran = text.includes('END-42');
      const args = ran ? [...text.matchAll(/^ARG<([\s\S]*?)>$/gm)].map((match) => match[1]!) : undefined;
      expect(existsSync(join(cwd, 'pwned')), 'a name ran as a command').toBe(false);
      resolve({ args, screen: text });
    });
  });
}

describe.runIf(HAS_BASH)('bash: a name completed inside a quote the user opened', () => {
  it.each([
    ["--group 'O", NAMES[0]],
    ['--group "O', NAMES[0]],
    ['--group O', NAMES[0]],
    ["--group 'Acme", NAMES[1]],
    ['--group "Acme', NAMES[1]],
    ['--group Acme', NAMES[1]],
    ["--group '$(", NAMES[2]],
    ['--group "$(', NAMES[2]],
  ])(
    '`mon alerts %s<Tab>` runs with the name as one word, as it is',
    async (words, name) => {
      const { args, screen } = await typed(`mon alerts ${words}`);
      expect(args, screen).toEqual(['alerts', '--group', name]);
    },
    30_000,
  );
});
