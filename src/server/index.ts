/**
 * The one layer under the servers mon runs: `--listen` parsed and the rule for leaving
 * loopback (address.ts), TLS from files (tls.ts), secrets compared in constant time
 * (secret.ts), and node:http/node:https with limits and a graceful close (serve.ts).
 */
export { checkExposure, isLoopback, parseListen, type Exposure, type ListenAddress } from './address.js';
export { sameSecret } from './secret.js';
export { readTls, type TlsFiles } from './tls.js';
export {
  DEFAULT_LIMITS,
  listen,
  serveUntil,
  type Reply,
  type ServeOptions,
  type Server,
  type ServerRequest,
} from './serve.js';
