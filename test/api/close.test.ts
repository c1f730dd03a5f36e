import { expect, it } from 'vitest';
import { testClient } from '../helpers/api-client.js';
import { startFakeApi } from '../helpers/fake-api.js';

it('closing the pool under a request in flight formats no stack trace: the request ends as a network error', async () => {
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  // Takes the request and never answers.
  const api = await startFakeApi(() => arrived());
  const client = testClient(api.url);
  try {
    const pending = client.call('groups.list', {}).catch((error: unknown) => error);
    await reached;
    // What formats a stack while the sockets close, with how many frames: Node's streams read the
    // stack of the error a socket is destroyed with.
    const formatted: string[] = [];
    const prepare = Error.prepareStackTrace;
    Error.prepareStackTrace = (error, frames) => {
      formatted.push(`${String(error)} (${frames.length} frames)`);
      return prepare ? prepare(error, frames) : String(error);
    };
    try {
      await client.close();
    } finally {
      Error.prepareStackTrace = prepare;
    }
    expect(formatted.filter((line) => !line.endsWith('(0 frames)'))).toEqual([]);
    expect(await pending).toMatchObject({
      exitCode: 8,
      message: expect.stringContaining('the connection pool is closed'),
    });
  } finally {
    await api.close();
  }
});
