// The parts of undici a request uses, loaded file by file. undici's index loads all of it: fetch,
// WebSocket, EventSource, cookies, caches, mocks, interceptors, about 530 KB that every command
// compiled and ran for a GET. These files are undici's own layout, not its documented API: the
// version is pinned in package.json and test/api/undici-layout.test.ts fails when they move.
import { setFlagsFromString } from 'node:v8';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';

/**
 * V8's default budget of WebAssembly tier-up (--wasm-tiering-budget) on the Node versions it was
 * read from (`node --v8-options`). Only where it is known is the budget raised: see below.
 */
const DEFAULT_TIERING_BUDGET: Record<string, number> = { '20': 1_800_000, '22': 13_000_000, '24': 13_000_000 };

/**
 * undici parses HTTP with a WebAssembly build of llhttp, compiled anew in every process. While a
 * short command parses its answer, V8 finds llhttp hot enough to compile it again with its
 * optimising tier on another thread, and the process waits for that at exit: on Node 24 about
 * half the instructions of a one-request command. So the first request, which compiles the
 * parser, runs with a tier-up budget no short command uses up; once its body is read the budget
 * is back to V8's default, so a long `--all` may still optimise, and the code cache bin/ writes at
 * the end is made under the flags every run starts with (V8 takes a cache only under those, so on
 * a Node whose default is not known here nothing is changed).
 */
let firstRequest = true;
function requestOnBaseline(this: Dispatcher, ...args: Parameters<Dispatcher['request']>): ReturnType<Dispatcher['request']> {
  const budget = DEFAULT_TIERING_BUDGET[process.versions.node.split('.')[0]!];
  if (!firstRequest || args.length > 1 || budget === undefined) return request.apply(this, args);
  firstRequest = false;
  const restore = () => setFlagsFromString(`--wasm-tiering-budget=${budget}`);
  setFlagsFromString('--wasm-tiering-budget=1000000000');
  try {
    // Until its body is read: llhttp parses the body too.
    return request.apply(this, args).then(
      (response) => {
        response.body.once('close', restore);
        return response;
      },
      (error: unknown) => {
        restore();
        throw error;
      },
    );
  } catch (error) {
    restore();
    throw error;
  }
}

// What undici's index does for every dispatcher (Object.assign(Dispatcher.prototype, api)), for
// the two methods used: request() by mon, connect() by the proxy agent (a CONNECT tunnel).
Object.assign(Dispatcher.prototype, { request: requestOnBaseline, connect });

export { EnvHttpProxyAgent };
export type { Dispatcher };
