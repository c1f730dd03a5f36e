import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { MON_BIN, tempDir } from '../helpers/run-mon.js';
import { bound } from '../helpers/slow.js';

/**
 * The shell examples of a Markdown file: every ```sh block whose first command starts with
 * `mon ` (a crontab or an env file is not one). `<!-- needs-account -->` on the line before a
 * block marks one that only a real account can run (a key typed at a prompt, another host).
 */
export interface Example {
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  script: string;
  needsAccount: boolean;
}

/** The fenced blocks of a language in a Markdown file: where each opens, its lines, and the last line before it. */
function blocksOf(file: string, language: string): { line: number; body: string[]; before: string }[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: { line: number; body: string[]; before: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== `\`\`\`${language}`) continue;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const block = { line: i + 1, body: [] as string[], before: before >= 0 ? lines[before]! : '' };
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) block.body.push(lines[i]!);
    out.push(block);
  }
  return out;
}

export function examplesOf(file: string): Example[] {
  return blocksOf(file, 'sh')
    .filter(({ body }) =>
      body
        .find((text) => text.trim() !== '' && !text.trim().startsWith('#'))
        ?.trim()
        .startsWith('mon '),
    )
    .map(({ line, body, before }) => ({
      file,
      line,
      script: body.join('\n'),
      needsAccount: before.includes('<!-- needs-account -->'),
    }));
}

/** One `mon` run inside an example: its words and exit code. */
export interface Invocation {
  args: string;
  code: number;
}

export interface ExampleRun {
  /** bash's own exit status for the whole block. */
  status: number | null;
  invocations: Invocation[];
  output: string;
}

/**
 * Runs an example's block with bash in `dir`, `mon` being bin/mon (through a function that logs
 * each run's words and exit code, in pipelines, `$(…)` and `&` too). `env` is the whole environment
 * besides PATH and HOME.
 */
export function runExample(
  example: Example,
  dir: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ExampleRun> {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  try {
    symlinkSync(MON_BIN, join(bin, 'mon'));
  } catch {
    // made by an earlier example
  }
  const log = join(tempDir('mon-example-'), 'log');
  writeFileSync(log, '');
  // mon runs as a child the function waits for, and SIGTERM to the function is passed on to it:
  // an example that starts a server with `mon … &` and stops it with `kill $!` stops mon, not
  // only the subshell around it (stdin kept: `&` would give it /dev/null).
  const prelude = `mon() { local pid code; command mon "$@" <&0 & pid=$!; trap "kill -TERM $pid 2>/dev/null" TERM; wait $pid; code=$?; while kill -0 $pid 2>/dev/null; do wait $pid; code=$?; done; trap - TERM; printf '%s\\t%s\\n' "$code" "$*" >> ${JSON.stringify(log)}; return $code; }\n`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', prelude + example.script], {
      cwd: dir,
      env: {
        PATH: [bin, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
        HOME: dir,
        TZ: 'UTC',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), bound(timeoutMs));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      const invocations = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ code: Number(line.split('\t')[0]), args: line.slice(line.indexOf('\t') + 1) }));
      resolve({ status, invocations, output });
    });
  });
}

/**
 * What is wrong with a run: a `mon` that no longer parses (exit 2) or that failed, or none ran.
 * `status --check` answers with its exit code (1 WARNING, 2 CRITICAL); a mistake in it is
 * UNKNOWN, 3.
 */
export function problems(run: ExampleRun): string[] {
  if (run.invocations.length === 0) return [`no mon command ran (bash exited ${run.status})`];
  const ok = (invocation: Invocation) =>
    invocation.code === 0 ||
    (/(^| )status( .*)? --check\b/.test(invocation.args) && (invocation.code === 1 || invocation.code === 2));
  return run.invocations
    .filter((invocation) => !ok(invocation))
    .map((invocation) => `mon ${invocation.args}: exit ${invocation.code}`);
}

/**
 * The transcripts of a Markdown file that promise their output: ```console blocks marked with
 * `<!-- output -->` on the line before, each `$ mon …` line followed by what it prints
 * (stdout and stderr, as a terminal shows them).
 */
export interface Transcript {
  file: string;
  line: number;
  command: string;
  expected: string;
}

export function transcriptsOf(file: string): Transcript[] {
  const out: Transcript[] = [];
  for (const { line, body, before } of blocksOf(file, 'console')) {
    if (!before.includes('<!-- output -->')) continue;
    let current: Transcript | undefined;
    body.forEach((text, index) => {
      const command = /^\$ (mon .*)$/.exec(text)?.[1];
      if (command) {
        current = { file, line: line + 1 + index, command, expected: '' };
        out.push(current);
      } else if (current) current.expected += `${text}\n`;
    });
  }
  return out;
}
