// The --jq sink with -o json: the document goes to jq as the renderers write it, so that jq
// parses the pages of a long --all while the next ones come; what jq yields waits until the
// command has succeeded (end()), so a command that fails prints nothing through the filter.
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { JqSink } from '../../src/output/jq.js';
import { startJqEngine } from '../../src/output/jq-engine.js';
import { CONTROL } from '../../src/output/jq-protocol.js';
import { bound, waitFor } from '../helpers/slow.js';

const workerFile = fileURLToPath(new URL('../../dist/jq-worker.cjs', import.meta.url));

/** Waits until `done()` holds (the worker's shared counters), within the hang bound. */
const until = (done: () => boolean): Promise<void> => waitFor(done, 'the jq worker');

function sinkFor(expression: string) {
  const engine = startJqEngine(expression, workerFile);
  let printed = '';
  const sink = new JqSink(expression, {
    mode: 'json',
    out: { write: (text: string) => (printed += text) },
    warn: () => undefined,
    deadlineMs: bound(60_000),
    engine,
  });
  return { sink, engine, printed: () => printed };
}

describe('the --jq sink with -o json', () => {
  it('hands jq each part of the document as it is written, and prints the results once the command has succeeded', async () => {
    const { sink, engine, printed } = sinkFor('.[]');
    await sink.ready;
    sink.write('[{"n":1},');
    // jq has the first page, and has read it, before the document is whole.
    expect(Atomics.load(engine.control, CONTROL.INPUT_POSTED)).toBe(1);
    await until(() => Atomics.load(engine.control, CONTROL.INPUT_BYTES) === 0);
    sink.write('{"n":2}]\n');
    // The document is whole: jq yields its results, which wait for the command's success.
    await until(() => Atomics.load(engine.control, CONTROL.RING_USED) > 0);
    // The main thread takes results from the ring every few ms (POLL_MS): a while of that, and still nothing.
    await sleep(50);
    expect(printed()).toBe('');
    await sink.end();
    expect(printed()).toBe('{"n":1}\n{"n":2}\n');
  });

  it('prints nothing when the command fails after jq has had the whole document', async () => {
    const { sink, engine, printed } = sinkFor('.[]');
    await sink.ready;
    sink.write('[1,2,3]\n');
    await until(() => Atomics.load(engine.control, CONTROL.RING_USED) > 0);
    // The command failed (a later request, a --changes save): it closes the sink instead of ending it.
    sink.close();
    await sleep(50);
    expect(printed()).toBe('');
  });

  it('a jq error met before the command ended is said after the results jq printed before it', async () => {
    const { sink, engine, printed } = sinkFor('.[0], error("stop")');
    await sink.ready;
    sink.write('["first"]\n');
    // jq has yielded its first result (held), and meets its error right after.
    await until(() => Atomics.load(engine.control, CONTROL.RING_USED) > 0);
    await expect(sink.end()).rejects.toThrow('--jq: stop');
    expect(printed()).toBe('first\n');
  });
});
