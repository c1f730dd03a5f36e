import { CommanderError } from 'commander';
import { redact } from './api/redact.js';
import { InterruptedError, MonError } from './errors.js';
import { buildProgram } from './program.js';
import { hasChecks } from './spec/spec.js';
import { createContext, knownSecrets, resolveGlobals, type MainDeps } from './runtime.js';

export type { MainDeps } from './runtime.js';

/**
 * Runs one command line and returns its exit code. The only place that maps errors to exit
 * codes (cli-contract.md, Exit codes); nothing below it exits the process, so tests can call
 * it in-process.
 */
export async function main(argv: readonly string[], deps: MainDeps): Promise<number> {
  const { io } = deps;
  const cleanups: (() => Promise<void> | void)[] = [];
  let verbose = argv.includes('--verbose') || argv.includes('-v');
  const program = buildProgram(
    { writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) },
    async (verb, input, command) => {
      const globals = resolveGlobals(command.optsWithGlobals(), deps.env);
      verbose = globals.verbose;
      const ctx = createContext(deps, globals, cleanups, program);
      // Most verbs have rules to check; the few that have none (`__complete`) skip loading zod.
      const checked = hasChecks(verb) ? (await import('./validate/input.js')).checkInput(verb, input, ctx.now()) : input;
      await verb.run(checked, ctx);
    },
    argv,
  );
  try {
    if (argv.length === 0) {
      // outputHelp, not helpInformation: the examples are added after the generated help.
      program.outputHelp();
      return 0;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    // After Ctrl-C or SIGTERM whatever broke is a consequence of the interrupt: say so, exit 130/143.
    const aborted = deps.signal?.aborted === true && !(error instanceof InterruptedError);
    return report(aborted ? new InterruptedError(deps.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT') : error, deps, verbose);
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Closing sockets or a sandbox after the answer was printed must not change the outcome.
      }
    }
  }
}

/** Prints one line for the error and returns its exit code. */
function report(error: unknown, deps: MainDeps, verbose: boolean): number {
  const write = (line: string) => deps.io.stderr.write(`${scrub(line, deps)}\n`);
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    // `mon help <command>` (exit code 0, help on stdout), or a missing verb: commander has
    // already printed the resource's help on stderr (exit code 1).
    if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : 2;
    write(`mon: ${error.message.replace(/^error: /, '').replace(/\n+/g, ' ').trim()}`);
    return 2;
  }
  if (error instanceof InterruptedError) {
    write(`mon: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof MonError) {
    write(`mon: ${error.message}${error.hint ? ` — ${error.hint}` : ''}`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  write(`mon: unexpected error: ${message}${verbose ? '' : ' (run again with --verbose for details)'}`);
  if (verbose && error instanceof Error && error.stack) write(error.stack);
  return 1;
}

/** No line on stderr may carry a key, whatever raised it. */
function scrub(text: string, deps: Pick<MainDeps, 'env'>): string {
  const secrets = [...knownSecrets, deps.env.MON_API_KEY].filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return secrets.reduce((out, secret) => redact(out, secret), redact(text));
}

/**
 * The line bin/mon prints for an error that escaped main() (an uncaught exception): one line,
 * no stack, no key.
 */
export function crashLine(error: unknown, env: Record<string, string | undefined>): string {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error).split('\n')[0];
  return `${scrub(`mon: unexpected error: ${message}`, { env })}\n`;
}
