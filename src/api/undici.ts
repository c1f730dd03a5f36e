// The parts of undici a request uses, loaded file by file. undici's index loads all of it: fetch,
// WebSocket, EventSource, cookies, caches, mocks, interceptors, about 530 KB that every command
// compiled and ran for a GET. Measured with callgrind, `mon computers list --json` against the
// sandbox: 236 M instructions on Node 22 and 232 M on Node 24 this way, 441 M and 465 M through
// the index (+87%, +100%). These files are undici's own layout, not its documented API: the
// version is pinned in package.json and test/api/undici-layout.test.ts fails when they move.
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';
import { raiseTieringBudget } from '../tiering.js';

/**
 * undici parses HTTP with a WebAssembly build of llhttp, compiled anew in every process, and the
 * process would wait at exit for V8 to optimise it (src/tiering.ts). Measured with callgrind,
 * `mon computers list --json` on one page of a 10,000-computer sandbox, Node 24: 238-248 M
 * instructions with this, and 236-500 M without (V8 tiers llhttp up in the background in about
 * half the runs, depending on what the code cache holds); Node 22 has the same two modes. So the first request, which
 * compiles the parser, runs with a raised tier-up budget; once its body is read (llhttp parses the
 * body too) the budget is back to V8's default, so a long `--all` may still optimise, and the
 * code cache bin/ writes at the end is made under the flags every run starts with.
 */
let firstRequest = true;
function requestOnBaseline(
  this: Dispatcher,
  ...args: Parameters<Dispatcher['request']>
): ReturnType<Dispatcher['request']> {
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

/** A proxy closed the connection before it answered the CONNECT that opens a tunnel: nothing was sent. */
export class ProxyTunnelError extends Error {
  readonly code = 'UND_ERR_PRX_CONN';
  constructor(cause: unknown) {
    super('the proxy closed the connection instead of opening a tunnel (CONNECT)', { cause });
  }
}

/**
 * A proxy that closes the connection before it answers the CONNECT (one that does not tunnel, or
 * refuses the API's host) makes undici 7's client connect again at once, without end, whatever
 * the request's timeout or signal: the failure comes back as UND_ERR_SOCKET, which the client
 * takes for a connection that dropped (nodejs/undici#3897; fixed in undici 8, which needs Node
 * 22.19). connect() is used by the proxy agent alone, so its failure is turned into one that
 * fails the request (test/api/undici-layout.test.ts says when undici no longer needs this).
 */
function connectTunnel(
  this: Dispatcher,
  ...args: Parameters<Dispatcher['connect']>
): ReturnType<Dispatcher['connect']> {
  if (args.length > 1) return connect.apply(this, args);
  return (connect.apply(this, args) as Promise<unknown>).catch((error: unknown) => {
    throw (error as { code?: string } | undefined)?.code === 'UND_ERR_SOCKET' ? new ProxyTunnelError(error) : error;
  }) as ReturnType<Dispatcher['connect']>;
}

// What undici's index does for every dispatcher (Object.assign(Dispatcher.prototype, api)), for
// the two methods used: request() by mon, connect() by the proxy agent (a CONNECT tunnel).
Object.assign(Dispatcher.prototype, { request: requestOnBaseline, connect: connectTunnel });

export { EnvHttpProxyAgent };
export type { Dispatcher };
