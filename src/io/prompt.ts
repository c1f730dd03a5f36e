/**
 * The one way mon asks a person something on the terminal: a delete's y/N, a bulk mute's plan,
 * `profile add`'s hidden key. While readline reads, the terminal is in raw mode, so Ctrl-C comes
 * as a key, not as the signal: it is taken for the interrupt it would have been (exit 130), and
 * Ctrl-D, the end of input, for an empty answer (a "no", or no key). SIGTERM and MON_DEADLINE
 * still end the wait through ctx.signal.
 */
import { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { InterruptedError } from '../errors.js';

/** The line typed after `question` on stderr; `hidden` echoes nothing of it (a key). */
export async function askLine(
  ctx: Context,
  question: string,
  { hidden = false }: { hidden?: boolean } = {},
): Promise<string> {
  // A boundary of the build (test/unit/lazy-boundaries.test.ts): the commands import this module
  // at the top, so readline is loaded here, only by a command that asks.
  const { createInterface } = await import('node:readline/promises');
  const stderr = ctx.io.stderr as NodeJS.WritableStream;
  // Hidden: the typed characters go to a sink that drops them.
  const output = hidden ? new Writable({ write: (_chunk, _encoding, done) => done() }) : stderr;
  const rl = createInterface({ input: ctx.io.stdin, output, terminal: true });
  // Only now, with the terminal in raw mode: a key typed at the prompt is readline's to read.
  if (hidden) stderr.write(question);
  // Ctrl-C and Ctrl-D are heard from readline's events: its question does not always settle
  // on them (not once the interface is closed from its SIGINT listener).
  const brokeOff = new Promise<{ brokeOff: 'ctrl-c' | 'end' }>((resolve) => {
    rl.once('SIGINT', () => resolve({ brokeOff: 'ctrl-c' }));
    rl.once('close', () => resolve({ brokeOff: 'end' }));
  });
  const asked = rl.question(hidden ? '' : question, { signal: ctx.signal }).then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );
  const outcome = await Promise.race([asked, brokeOff]);
  rl.close();
  // Enter echoed a line break; a hidden answer, Ctrl-C and Ctrl-D did not.
  if (hidden || !('answer' in outcome)) stderr.write('\n');
  if (ctx.signal.aborted) throw InterruptedError.of(ctx.signal);
  if ('answer' in outcome) return outcome.answer;
  if ('brokeOff' in outcome) {
    if (outcome.brokeOff === 'ctrl-c') throw new InterruptedError('SIGINT');
    return '';
  }
  throw outcome.error;
}
