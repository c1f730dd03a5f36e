import type { Context } from '../context.js';
import { DeclinedError, UsageError } from '../errors.js';
import { terminalSafe } from '../text/escape.js';
import { askLine } from './prompt.js';

/** What a confirmation asks, and what it says when it cannot ask or is told no. */
export interface Confirmation {
  /** The question, ending in `[y/N] `; made only when there is someone to ask. */
  question: () => Promise<string>;
  /** Message and hint when there is no terminal and no --yes. */
  refusal: [string, string];
  /** Message when the answer is not yes. */
  declined: string;
  /** Shown on the terminal just before the question (what will be done), when it is asked. */
  preface?: () => Promise<void>;
}

/**
 * --yes, or a "y" typed on a terminal (stdin and stderr both terminals); without a terminal
 * and --yes, a UsageError (exit 2) before anything is sent; any other answer, a DeclinedError
 * (exit 1: the command line was right, the person said no).
 */
export async function confirmAction(ctx: Context, confirmation: Confirmation): Promise<void> {
  if (ctx.globals.yes) return;
  const { stdin, stderr } = ctx.io;
  if (!stdin.isTTY || !stderr.isTTY) throw new UsageError(...confirmation.refusal);
  await confirmation.preface?.();
  const answer = await askLine(ctx, await confirmation.question());
  if (!/^y(es)?$/i.test(answer.trim())) throw new DeclinedError(confirmation.declined);
}

/**
 * A delete: --yes, or a "y" typed on a terminal after the question that shows what will go;
 * with neither, a UsageError (exit 2, docs/design/cli-contract.md, Exit codes) and nothing deleted.
 */
export async function confirmDeletion(ctx: Context, describe: () => Promise<string>): Promise<void> {
  await confirmAction(ctx, {
    question: async () => `Delete ${terminalSafe(await describe())}? This cannot be undone. [y/N] `,
    refusal: ['refusing to delete without --yes: no terminal to confirm on', 'add --yes (-y) to delete from a script'],
    declined: 'not deleted: the deletion was not confirmed',
  });
}
