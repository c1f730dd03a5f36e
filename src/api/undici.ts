// The parts of undici a request uses, loaded file by file. undici's index loads all of it: fetch,
// WebSocket, EventSource, cookies, caches, mocks, interceptors, about 530 KB that every command
// compiled and ran for a GET. These files are undici's own layout, not its documented API: the
// version is pinned in package.json and test/api/undici-layout.test.ts fails when they move.
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';
import { raiseTieringBudget } from '../tiering.js';

/**
 * undici parses HTTP with a WebAssembly build of llhttp, compiled anew in every process, and the
 * process would wait at exit for V8 to optimise it (src/tiering.ts). So the first request, which
 * compiles the parser, runs with a raised tier-up budget; once its body is read (llhttp parses the
 * body too) the budget is back to V8's default, so a long `--all` may still optimise, and the
 * code cache bin/ writes at the end is made under the flags every run starts with.
 */
let firstRequest = true;
function requestOnBaseline(this: Dispatcher, ...args: Parameters<Dispatcher['request']>): ReturnType<Dispatcher['request']> {
  if (!firstRequest || args.length > 1) return request.apply(this, args);
  firstRequest = false;
  const restore = raiseTieringBudget();
  if (!restore) return request.apply(this, args);
  try {
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
