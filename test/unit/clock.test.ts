import { setTimeout as nodeSleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/clock.js';

/** What a promise rejected with, as the fields a caller may read. */
async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = (await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )) as Error & { code?: string };
  expect(error).toBeInstanceOf(Error);
  return { name: error.name, code: error.code, message: error.message, cause: error.cause };
}

/** The system clock's sleep, which rejects on an abort as node:timers/promises does. */
describe('sleep', () => {
  it('resolves once the time has passed, without a signal and with one that never aborts', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    await expect(sleep(1, controller.signal)).resolves.toBeUndefined();
  });

  it('rejects at once on a signal already aborted, as node:timers/promises does', async () => {
    const reason = new Error('stopped');
    const signal = AbortSignal.abort(reason);
    const ours = await rejection(sleep(60_000, signal));
    expect(ours).toEqual(await rejection(nodeSleep(60_000, undefined, { signal })));
    expect(ours).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: reason });
  });

  it('rejects when the signal aborts during the wait, as node:timers/promises does', async () => {
    const controller = new AbortController();
    const ours = sleep(60_000, controller.signal);
    const node = nodeSleep(60_000, undefined, { signal: controller.signal });
    controller.abort('SIGINT');
    const expected = await rejection(node);
    expect(await rejection(ours)).toEqual(expected);
    expect(expected).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: 'SIGINT' });
  });

  it('leaves no listener on the signal once it has resolved', async () => {
    const controller = new AbortController();
    const { signal } = controller;
    let listeners = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      listeners++;
      add(...args);
    };
    signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => {
      listeners--;
      remove(...args);
    };
    await sleep(1, signal);
    expect(listeners).toBe(0);
  });
});
