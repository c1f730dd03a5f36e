import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { hasProgram } from '../helpers/programs.js';
import { runMon, tempDir } from '../helpers/run-mon.js';
import { examplesOf, problems, runExample, transcriptsOf, type Example } from './examples.js';
import { bound } from '../helpers/slow.js';

/**
 * Every shell example of the README and the guides, run as printed with bash and bin/mon against
 * the sandbox: a command, option or value an example shows that mon no longer takes fails here
 * (exit 2), and so does one that fails for another reason. Two saved profiles, acme and
 * northwind, point at one sandbox, so `-p acme` and `--all-profiles` run as they would; `--sandbox`
 * examples start their own, with the state in the same config folder.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const FILES = [
  'README.md',
  ...readdirSync(join(root, 'docs', 'guides'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', 'guides', file)),
];
const EXAMPLES = FILES.flatMap((file) => examplesOf(join(root, file)));
const TRANSCRIPTS = FILES.flatMap((file) => transcriptsOf(join(root, file)));
/** The examples are bash: without it they are skipped, said once. */
const HAS_BASH = hasProgram('bash');

let sandbox: RunningSandbox;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir('mon-docs-');
  env = { MON_CONFIG_DIR: join(dir, 'config') };
  for (const name of ['acme', 'northwind']) {
    const saved = await runMon(['profile', 'add', name, '--base-url', sandbox.url, '--api-key-stdin'], {
      env,
      input: sandbox.apiKey,
    });
    expect(saved.code, saved.stderr).toBe(0);
  }
});

afterAll(async () => {
  await sandbox?.close();
});

const label = (example: Example) => `${relative(root, example.file)}:${example.line}`;

describe.runIf(HAS_BASH).concurrent('the shell examples of the README and the guides', () => {
  it('are found in every file, and a few need a real account', () => {
    expect(EXAMPLES.length).toBeGreaterThan(15);
    for (const file of ['README.md', 'docs/guides/fleet.md', 'docs/guides/scripting.md'])
      expect(
        EXAMPLES.some((example) => relative(root, example.file) === file),
        file,
      ).toBe(true);
  });

  it.each(EXAMPLES.filter((example) => !example.needsAccount).map((example) => [label(example), example] as const))(
    '%s runs against the sandbox',
    async (_label, example) => {
      const run = await runExample(example, dir, env, 110_000);
      expect(problems(run), run.output).toEqual([]);
    },
    bound(120_000),
  );
});

describe('the transcripts marked <!-- output -->', () => {
  it('are found', () => {
    expect(TRANSCRIPTS.length).toBeGreaterThan(0);
  });

  it.each(
    TRANSCRIPTS.map(
      (transcript) =>
        [`${relative(root, transcript.file)}:${transcript.line} ${transcript.command}`, transcript] as const,
    ),
  )('%s prints what the transcript shows', async (_label, transcript) => {
    const run = await runExample(
      { file: transcript.file, line: transcript.line, script: transcript.command, needsAccount: false },
      dir,
      env,
    );
    expect(run.output).toBe(transcript.expected);
  });
});

describe.runIf(HAS_BASH)('the examples check', () => {
  it('fails on an example that no longer parses, naming the command and exit 2', async () => {
    const [broken] = examplesOf(fileURLToPath(new URL('fixtures/broken.md', import.meta.url)));
    const run = await runExample(broken!, dir, env);
    expect(problems(run)).toEqual(['mon computers list --status missing --no-such-option: exit 2']);
    expect(run.output).toContain("mon: unknown option '--no-such-option'");
  });

  it('skips a block marked as needing an account, and a block that is not a mon command', () => {
    const marked = EXAMPLES.filter((example) => example.needsAccount);
    expect(marked.length).toBeGreaterThan(0);
    expect(EXAMPLES.every((example) => !/^\s*\*\/\d+ /m.test(example.script))).toBe(true);
  });
});
