import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { InterruptedError, UsageError } from '../../src/errors.js';
import { readUserInput, type UserInput } from '../../src/io/user-input.js';
import { FROM_MAX_UIDS, parseUidLines } from '../../src/validate/uid-list.js';

/** The little of a Context the reader uses: stdin, the environment and the signal. */
function context(chunks: string[], signal = new AbortController().signal): Context {
  return {
    io: { stdin: Readable.from(chunks.map((chunk) => Buffer.from(chunk))) },
    env: {},
    signal,
  } as unknown as Context;
}

const input: UserInput = {
  option: '--from',
  path: '-',
  maxBytes: 1024,
  maxLineBytes: 10,
  tooLarge: 'the most it may be',
  hint: 'give less',
};

describe('readUserInput', () => {
  it('reads every chunk whole when within its bounds, lines of exactly the bound included', async () => {
    expect(await readUserInput(context(['0123456789\n01234', '56789\n', '0123456789'], undefined), input)).toBe(
      '0123456789\n0123456789\n0123456789',
    );
  });

  it.each([
    [['0123456789\n01234', '567890\n'], 'line 2 of stdin is longer than 10 bytes'],
    [['0123456789', '0\n'], 'line 1 of stdin is longer than 10 bytes'],
    [['a\n'.repeat(300), 'b'.repeat(11)], 'line 301 of stdin is longer than 10 bytes'],
  ])('stops at a line over the bound, wherever the chunks break it (%#)', async (chunks, message) => {
    await expect(readUserInput(context(chunks), input)).rejects.toThrow(
      new UsageError(`--from: ${message}, the most a line may be; stopped reading there`, 'give less'),
    );
  });

  it('stops once the whole is over its bound, and says which', async () => {
    const error = await readUserInput(context(['x\n'.repeat(400), 'x\n'.repeat(400)]), input).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      '--from: stdin holds more than 1 KiB, the most it may be; stopped reading there',
    );
  });

  it('an aborted signal ends it as an interrupt', async () => {
    const controller = new AbortController();
    controller.abort('SIGTERM');
    await expect(readUserInput(context(['pr_a\n'], controller.signal), input)).rejects.toThrow(InterruptedError);
  });

  it('a file that cannot be read is a usage error naming it', async () => {
    await expect(readUserInput(context([]), { ...input, path: '/nonexistent/uids' })).rejects.toThrow(
      "--from: cannot read '/nonexistent/uids' (ENOENT)",
    );
  });
});

describe('--from takes at most a million uids', () => {
  it('refuses the one after, naming its line; a uid named twice counts once', () => {
    expect(FROM_MAX_UIDS).toBe(1_000_000);
    expect(parseUidLines('pr_1\npr_2\npr_1\npr_3', 'stdin', 3)).toEqual(['pr_1', 'pr_2', 'pr_3']);
    expect(() => parseUidLines('pr_1\npr_2\npr_1\npr_3\n\npr_4', 'stdin', 3)).toThrow(
      '--from: stdin names more than 3 plugin results, the most one run takes; stopped at line 6',
    );
  });
});
