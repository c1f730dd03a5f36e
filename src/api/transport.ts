import { setFlagsFromString } from 'node:v8';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

/**
 * The parts of undici the client uses: a proxy-aware agent and its request() method. undici's
 * index also loads fetch, WebSocket, EventSource, caches and mocks, which a command would
 * compile on every start for nothing.
 */
// What undici's index does to give every dispatcher request(), stream(), pipeline()…
Object.assign(Dispatcher.prototype, api);

// undici parses HTTP with a WebAssembly build of llhttp, compiled anew in every process. V8's
// optimising tier compiles it again in the background and the process waits for that at exit:
// about 120 ms of a one-request command. The baseline compiler is plenty for a command line.
// (If it cannot take undici's SIMD build, undici falls back to its plain build by itself.)
// bin/load-bundle.cjs sets it as well, before compiling: see BUNDLE_V8_FLAGS there.
setFlagsFromString('--liftoff-only');

export { EnvHttpProxyAgent };
export type { Dispatcher };
