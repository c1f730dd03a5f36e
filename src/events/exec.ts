/**
 * --exec CMD: runs the command (through the shell) once per event, the event's JSON line on its
 * stdin; at most `parallel` at once (the others wait their turn), each for at most `timeoutMs`
 * (then SIGTERM, and SIGKILL a moment later). Its output goes to mon's stderr. A command that
 * fails is the caller's to count: run() resolves with why, never rejects.
 */
import { spawn } from 'node:child_process';

export interface ExecOptions {
  command: string;
  parallel: number;
  timeoutMs: number;
  /** The command's stdout and stderr, as they come. */
  output(chunk: string): void;
  env: Record<string, string | undefined>;
}

/** Why a run failed, for the log line; undefined when it exited 0. */
export type ExecOutcome = string | undefined;

const KILL_GRACE_MS = 2_000;

export class ExecRunner {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: ExecOptions) {}

  async run(input: string, extraEnv: Record<string, string>): Promise<ExecOutcome> {
    if (this.running >= this.options.parallel) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await this.once(input, extraEnv);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private once(input: string, extraEnv: Record<string, string>): Promise<ExecOutcome> {
    const { command, timeoutMs, output, env } = this.options;
    return new Promise((resolve) => {
      // A process group of its own, so that a timeout stops what the shell started too (a
      // `sleep` the shell waits on would hold the pipes open).
      const child = spawn(command, {
        shell: true,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...env, ...extraEnv },
      });
      const kill = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          child.kill(signal);
        }
      };
      let timedOut = false;
      let killer: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        kill('SIGTERM');
        killer = setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS);
      }, timeoutMs);
      child.stdout.setEncoding('utf8').on('data', output);
      child.stderr.setEncoding('utf8').on('data', output);
      // A command that does not read its stdin closes it: that is no failure of the command.
      child.stdin.on('error', () => {});
      child.stdin.end(`${input}\n`);
      child.once('error', (error) => {
        clearTimeout(timer);
        resolve(`could not start: ${error.message}`);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        clearTimeout(killer);
        if (timedOut) resolve(`did not finish within ${timeoutMs / 1000}s`);
        else if (signal) resolve(`killed by ${signal}`);
        else resolve(code === 0 ? undefined : `exit status ${code}`);
      });
    });
  }
}
