/**
 * What a request that got no whole answer failed on (a timeout, TLS, a proxy, a host that cannot
 * be reached), as one line without the key or a proxy's password, and whether another attempt may
 * help (attempt-failed.ts).
 */
import { NetworkError } from '../errors.js';
import { AttemptFailed } from './attempt-failed.js';
import { failedAtProxy, type Proxy } from './proxy.js';
import { redact } from './redact.js';

/** Where a request goes and how long it may take, as a failure's message names them. */
export interface Destination {
  /** Taken out of undici's text wherever it shows. */
  apiKey: string;
  /** host[:port] of the base URL, for messages. */
  host: string;
  /** Where the base URL came from ("profile acme", "--base-url"), for messages. */
  baseUrlSource: string;
  /** The proxy the environment names for the base URL's scheme, and where the base URL points, for messages. */
  proxy?: { proxy: Proxy; target: { hostname: string; port: number } };
  timeoutMs: number;
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export function timeoutError(settings: Pick<Destination, 'host' | 'timeoutMs'>, answered: boolean): NetworkError {
  const { host } = settings;
  const seconds = settings.timeoutMs / 1000;
  return new NetworkError(
    answered
      ? `${host} started to answer but did not finish within ${seconds} s`
      : `no answer from ${host} within ${seconds} s`,
    'raise --timeout (or MON_TIMEOUT) if the service is slow',
  );
}

/** What undici's error says: its code (or its cause's) and its message. */
interface Said {
  code: string;
  message: string;
}

/** undici's errors (which can carry the URL, and so the key) become one clean line. */
export function networkError(settings: Destination, error: unknown): AttemptFailed {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code ??
    '';
  const said = { code, message: String((error as Error | undefined)?.message ?? '') };
  if (/TIMEOUT/.test(code)) return new AttemptFailed(timeoutError(settings, code === 'UND_ERR_BODY_TIMEOUT'), 'final');
  return (
    protocolFailure(settings, said, error) ?? proxyFailure(settings, said) ?? connectionFailure(settings, said, error)
  );
}

/** TLS, or an answer that is not HTTP/1.1: another attempt meets the same server. */
function protocolFailure(settings: Destination, { code, message }: Said, error: unknown): AttemptFailed | undefined {
  const { host } = settings;
  if (TLS_CODES.has(code) || /certificate/i.test(message)) {
    return new AttemptFailed(
      new NetworkError(
        `TLS: the certificate of ${host} is not trusted (${code || 'verification failed'})`,
        'if a proxy or private CA signs it, point NODE_EXTRA_CA_CERTS at its certificate file',
      ),
      'final',
    );
  }
  // Any other TLS failure (a plain-http port behind an https URL, no common protocol or
  // cipher) is not transient: another attempt meets the same server.
  if (/^ERR_(SSL|TLS)_/.test(code) || (code === 'EPROTO' && /SSL|TLS/i.test(message))) {
    return new AttemptFailed(
      new NetworkError(
        `TLS: the connection to ${host} failed (${code})`,
        `check that the base URL (from ${settings.baseUrlSource}) names an https port, and that a proxy between does not intercept it`,
      ),
      'final',
    );
  }
  // An answer that is not HTTP/1.1 (a port that speaks another protocol, a proxy that mangles the
  // answer), or headers past Node's limit: another attempt meets the same answer.
  if (code.startsWith('HPE_') || (error as Error | undefined)?.name === 'HTTPParserError') {
    return new AttemptFailed(
      new NetworkError(
        `${host} did not answer in HTTP/1.1 (${redact(message, settings.apiKey)})`,
        `check the scheme and port of the base URL (from ${settings.baseUrlSource})`,
      ),
      'final',
    );
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new AttemptFailed(
      new NetworkError(
        `${host} answered with headers larger than Node takes (16 KB, or --max-http-header-size)`,
        'a proxy between may add them',
      ),
      'final',
    );
  }
  return undefined;
}

/** How messages name the proxy: by the variable it came from (src/api/proxy.ts), never with its password. */
function proxyNamed(settings: Destination) {
  const proxy = settings.proxy?.proxy;
  const theProxy = proxy ? `the proxy ${proxy.where} (from ${proxy.source})` : 'the proxy';
  const target = settings.proxy?.target.hostname ?? settings.host;
  return { proxy, theProxy, target, direct: `add ${target} to NO_PROXY to connect directly` };
}

/** The proxy refused the tunnel, failed its SOCKS5 handshake or closed the connection. */
function proxyFailure(settings: Destination, { code, message }: Said): AttemptFailed | undefined {
  const { host } = settings;
  const { proxy, theProxy, target, direct } = proxyNamed(settings);
  // The proxy answered the CONNECT that opens the tunnel with another status than 200 (undici's
  // message, test/api/undici-layout.test.ts): asking again meets the same answer.
  const refused = /^Proxy response \((\d+)\)/.exec(message)?.[1];
  if (refused !== undefined) {
    const hint =
      refused === '407'
        ? `the proxy asks for a user and password: give them in ${proxy?.source ?? 'HTTPS_PROXY'} as http://user:password@host:port`
        : `ask the proxy's administrator to let ${target} through, or ${direct}`;
    return new AttemptFailed(
      new NetworkError(`cannot reach ${host}: ${theProxy} refused the tunnel to it (${refused})`, hint),
      'final',
    );
  }
  const socks = socksFailure(code, message);
  if (socks !== undefined) {
    const variable = proxy?.source ?? 'the proxy variable';
    const hint =
      socks.kind === 'auth'
        ? `give a user and password in ${variable} as socks5://user:password@host:port`
        : socks.kind === 'protocol'
          ? `check that ${variable} names a SOCKS5 proxy and its port`
          : `check the proxy, or ${direct}`;
    return new AttemptFailed(
      new NetworkError(`cannot reach ${host}: ${theProxy} ${socks.said}`, hint),
      socks.kind === 'unreached' ? 'unsent' : 'final',
    );
  }
  if (code === 'UND_ERR_PRX_CONN') {
    return new AttemptFailed(
      new NetworkError(
        `cannot reach ${host}: ${theProxy} closed the connection instead of opening a tunnel to it (CONNECT)`,
        `check that the proxy tunnels HTTPS, or ${direct}`,
      ),
      'unsent',
    );
  }
  return undefined;
}

/** The API's host (or the proxy) could not be reached, or the connection dropped. */
function connectionFailure(settings: Destination, { code, message }: Said, error: unknown): AttemptFailed {
  const { host } = settings;
  const { proxy, theProxy, direct } = proxyNamed(settings);
  // The proxy, not the API's host, when the name or address that failed is the proxy's.
  const atProxy =
    settings.proxy !== undefined &&
    failedAtProxy(
      settings.proxy.proxy,
      settings.proxy.target,
      error as { hostname?: string; address?: string; port?: number },
    );
  const unreachable = atProxy ? theProxy : host;
  // A name the resolver says does not exist will not exist a second later (docs/design/cli-contract.md:
  // not retried); EAI_AGAIN is the resolver failing for now, and is.
  if (code === 'ENOTFOUND') {
    return new AttemptFailed(
      new NetworkError(
        `cannot reach ${unreachable}: host not found`,
        atProxy
          ? `check the host name in ${proxy?.source}`
          : `check the host name of the base URL (from ${settings.baseUrlSource})`,
      ),
      'final',
    );
  }
  const unsent = code === 'ECONNREFUSED' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH';
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE'
        ? 'connection reset'
        : code || message || 'network error';
  return new AttemptFailed(
    new NetworkError(
      `cannot reach ${unreachable}: ${redact(reason, settings.apiKey)}`,
      atProxy ? `check ${proxy?.source}, or ${direct}` : undefined,
    ),
    unsent ? 'unsent' : 'transient',
  );
}

/**
 * What a SOCKS5 proxy's failure means, from undici's code (UND_ERR_SOCKS5_*; a proxy that asks
 * for a password mon was not given is UND_ERR_INVALID_ARG): `auth`, `protocol`, `refused` (the
 * proxy will never connect there: not allowed, no such command) and `silent` (the handshake ran
 * out of time) are final; `unreached` (the proxy could not connect onwards: nothing reached the
 * API) is tried again.
 */
function socksFailure(
  code: string,
  message: string,
): { kind: 'auth' | 'protocol' | 'refused' | 'unreached' | 'silent'; said: string } | undefined {
  if (code === 'UND_ERR_INVALID_ARG' && /^Username and password required/.test(message))
    return { kind: 'auth', said: 'asks for a user and password' };
  // undici's own limit on the handshake, an Error without a code: final, as a timeout is.
  if (code === '' && /^SOCKS5 (authentication|connection) timeout$/.test(message))
    return { kind: 'silent', said: 'did not finish the SOCKS5 handshake within 5 s' };
  if (!code.startsWith('UND_ERR_SOCKS5')) return undefined;
  if (code.startsWith('UND_ERR_SOCKS5_AUTH')) return { kind: 'auth', said: 'refused the authentication' };
  const reply = /^UND_ERR_SOCKS5_REPLY_(\d+)$/.exec(code)?.[1];
  // undici's text for the proxy's reply code (RFC 1928): "SOCKS5 connection failed: Connection refused".
  const why = message.replace(/^SOCKS5 connection failed: /, '').toLowerCase();
  if (reply === '2' || reply === '7' || reply === '8')
    return { kind: 'refused', said: `refused the connection to it (${why})` };
  if (reply !== undefined) return { kind: 'unreached', said: `could not connect to it (${why})` };
  return { kind: 'protocol', said: 'did not answer as a SOCKS5 proxy' };
}

export function isSocksFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return socksFailure(typeof code === 'string' ? code : '', typeof message === 'string' ? message : '') !== undefined;
}
