// The --jq worker changes V8's WebAssembly flags while jq is compiled and runs (src/tiering.ts),
// and V8's flags are the whole process's: V8 takes a code cache only under the flags it was made
// with. bin/mon starts the worker before it loads the bundle from its code cache, so the worker
// must leave the flags alone until the main thread says it has loaded (CONTROL.MAIN_LOADED); it
// says while they are changed (CONTROL.FLAGS_CHANGED), when bin/mon writes no cache; and it puts
// them back once jq is done, so that the cache written at the end is one the next run takes.
import { spawnSync } from 'node:child_process';
import { Script } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startJqEngine, type EngineEvent, type JqEngine } from '../../src/output/jq-engine.js';

const workerFile = fileURLToPath(new URL('../../dist/jq-worker.cjs', import.meta.url));

/** A bound for the worker's wait for the main thread that no test reaches (an hour). */
const NEVER = 3_600_000;

/**
 * Two scripts and their code caches, made by another process under the flags this one started
 * with. Each is checked once: V8 checks a cache's flags only when it compiles the source, and a
 * source compiled once in a process is found again without a check.
 */
function cachesFromAnotherProcess(): { source: string; cache: Buffer }[] {
  const sources = [1, 2, 3].map(
    (n) => `function answer${n}(a) { return [a, ${n}].map((x) => x * 2).join(' '); } answer${n}(1);`,
  );
  const make = `const { Script } = require('node:vm'); process.stdout.write(JSON.stringify(${JSON.stringify(sources)}.map((s) => new Script(s).createCachedData().toString('base64'))));`;
  const made = spawnSync(process.execPath, [...process.execArgv, '-e', make], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  return (JSON.parse(made.stdout) as string[]).map((cache, i) => ({
    source: sources[i]!,
    cache: Buffer.from(cache, 'base64'),
  }));
}

/** Whether V8 takes the cache for its source under the flags of this moment. */
const takes = ({ source, cache }: { source: string; cache: Buffer }) =>
  !new Script(source, { cachedData: cache }).cachedDataRejected;

/** Resolves with the events so far once the worker says 'ready' (or fails). */
function whenReady(engine: JqEngine, events: EngineEvent[]): Promise<EngineEvent[]> {
  return new Promise((resolve) => {
    engine.listen((event) => {
      events.push(event);
      if (event.kind !== 'message' || event.message.type !== 'warn') resolve(events);
    });
  });
}

/** Ends jq's input, and resolves with the worker's next message. */
function endInput(engine: JqEngine): Promise<EngineEvent> {
  const next = new Promise<EngineEvent>((resolve) => engine.listen(resolve));
  engine.send(null);
  return next;
}

describe('the --jq engine, started before the main thread has loaded', () => {
  it("compiles nothing until the main thread has loaded its code; changes V8's flags while jq runs, says so, and puts them back", async () => {
    const [before, during, after] = cachesFromAnotherProcess();
    // The worker's own bound is out of reach, so the order holds however busy the machine.
    const engine = startJqEngine('length', workerFile, { mainLoading: true, mainLoadWaitMs: NEVER });
    const events: EngineEvent[] = [];
    const ready = whenReady(engine, events);
    try {
      // The worker has time to reach its flags (about 0.1 s idle); however long it takes, it must
      // not pass them before mainLoaded(): a slow machine only makes this check weaker, never red.
      await sleep(200);
      expect(events).toEqual([]);
      expect(engine.flagsChanged()).toBe(false);
      expect(takes(before!), 'the flags are still those the process started with').toBe(true);
      engine.mainLoaded();
      expect(await ready).toEqual([{ kind: 'message', message: { type: 'ready' } }]);
      expect(engine.flagsChanged()).toBe(true);
      expect(takes(during!), 'while jq runs, a cache of the usual flags is refused').toBe(false);
      expect(await endInput(engine)).toEqual({ kind: 'message', message: { type: 'done', exitCode: 0 } });
      expect(engine.flagsChanged()).toBe(false);
      expect(takes(after!), 'once jq is done, the flags are those the process started with').toBe(true);
    } finally {
      await engine.worker.terminate();
    }
  });

  it("for a long input (--all), leaves V8's flags alone: ready without waiting for the main thread, and caches of the usual flags taken while jq runs", async () => {
    const [during, after] = cachesFromAnotherProcess();
    // Were it to wait for the main thread, which never says it has loaded, it would never be ready.
    const engine = startJqEngine('length', workerFile, { mainLoading: true, longInput: true, mainLoadWaitMs: NEVER });
    try {
      expect(await whenReady(engine, [])).toEqual([{ kind: 'message', message: { type: 'ready' } }]);
      expect(engine.flagsChanged()).toBe(false);
      expect(takes(during!)).toBe(true);
      expect(await endInput(engine)).toEqual({ kind: 'message', message: { type: 'done', exitCode: 0 } });
      expect(takes(after!)).toBe(true);
    } finally {
      await engine.worker.terminate();
    }
  });

  it('goes on by itself after a bounded wait when the main thread never says so', async () => {
    const engine = startJqEngine('.', workerFile, { mainLoading: true, mainLoadWaitMs: 50 });
    try {
      // mainLoaded() is never called: 'ready' comes all the same, and with V8's flags changed.
      expect(await whenReady(engine, [])).toEqual([{ kind: 'message', message: { type: 'ready' } }]);
      expect(engine.flagsChanged()).toBe(true);
    } finally {
      await engine.worker.terminate();
    }
  });
});
