// The parts of undici a request uses, loaded file by file. undici's index loads all of it: fetch,
// WebSocket, EventSource, cookies, caches, mocks, interceptors, about 530 KB that every command
// compiled and ran for a GET. These files are undici's own layout, not its documented API: the
// version is pinned in package.json and test/api/undici-layout.test.ts fails when they move.
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';

// What undici's index does for every dispatcher (Object.assign(Dispatcher.prototype, api)), for
// the two methods used: request() by mon, connect() by the proxy agent (a CONNECT tunnel).
Object.assign(Dispatcher.prototype, { request, connect });

export { EnvHttpProxyAgent };
export type { Dispatcher };
