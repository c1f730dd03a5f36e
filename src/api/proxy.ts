/**
 * The proxies the environment names (HTTPS_PROXY and HTTP_PROXY, else their lower-case forms),
 * which undici's EnvHttpProxyAgent uses as every Node tool does (docs/design/cli-contract.md). Read here so
 * that one undici cannot use is exit 2 naming the variable before anything is sent, not a stack,
 * and so that a proxy that cannot be reached is named as the proxy, not as the API's host.
 */
import { UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';

export interface Proxy {
  /** The variable it came from (HTTPS_PROXY, https_proxy…). */
  source: string;
  /** The value as given, which undici is handed. */
  url: string;
  /** The host name or address, without the brackets of an IPv6 address. */
  hostname: string;
  port: number;
  /** host:port, for messages (never the user and password). */
  where: string;
  /** A SOCKS5 proxy (socks5://, socks://): a plain TCP connection to it, never TLS. */
  socks: boolean;
}

/** What undici's ProxyAgent takes, with the port each means when none is given. */
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'socks:': 1080, 'socks5:': 1080 };

/** A host name as URL gives it, without the brackets of an IPv6 address. */
function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/** Where a URL points: its host and port (the scheme's when it names none), as a failed connection names them. */
export function endpointOf(url: URL): { hostname: string; port: number } {
  return { hostname: bare(url.hostname), port: Number(url.port) || DEFAULT_PORTS[url.protocol]! };
}

/** The proxy for each scheme of the API's URL; an empty variable names none, as undici reads it. */
export function proxiesFrom(env: Record<string, string | undefined>): { 'http:'?: Proxy; 'https:'?: Proxy } {
  return { 'http:': proxyNamed(env, 'HTTP_PROXY'), 'https:': proxyNamed(env, 'HTTPS_PROXY') };
}

function proxyNamed(env: Record<string, string | undefined>, name: string): Proxy | undefined {
  const source = env[name] !== undefined ? name : name.toLowerCase();
  const url = env[source];
  if (!url) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // Said below.
  }
  if (!parsed || DEFAULT_PORTS[parsed.protocol] === undefined || parsed.hostname === '') {
    throw new UsageError(
      `${source}: must be a proxy's URL, http://, https:// or socks5:// and a host (got ${quoted(withoutCredentials(url))})`,
      `fix or unset ${source}`,
    );
  }
  const port = parsed.port === '' ? DEFAULT_PORTS[parsed.protocol]! : Number(parsed.port);
  return {
    source,
    url,
    hostname: bare(parsed.hostname),
    port,
    where: `${parsed.hostname}:${port}`,
    socks: parsed.protocol.startsWith('socks'),
  };
}

/** A proxy's URL with its user and password (`http://user:secret@host`) left out, for messages. */
function withoutCredentials(url: string): string {
  return url.replace(/^([^/@]*\/\/)?[^/@]*@/, (_all, scheme: string | undefined) => `${scheme ?? ''}***@`);
}

/**
 * Whether a connection failure is the proxy's: the name that could not be resolved, or the port
 * (and address) that refused, are the proxy's and not the API's. When the two share a name, or a
 * port and an address, nothing tells them apart and the API's host is named, as without a proxy.
 */
export function failedAtProxy(
  proxy: Proxy,
  target: { hostname: string; port: number },
  error: { hostname?: string; address?: string; port?: number },
): boolean {
  if (error.hostname !== undefined) return error.hostname === proxy.hostname && proxy.hostname !== target.hostname;
  if (error.port !== proxy.port) return false;
  return proxy.port !== target.port || (error.address === proxy.hostname && proxy.hostname !== target.hostname);
}

/**
 * What undici's SOCKS5 agent makes Node warn about, once a process each: that its SOCKS5 support
 * is experimental, and, for an https:// API whose host is an IP address, that it names that
 * address as the TLS server name (DEP0123; Node ignores it).
 */
const SOCKS_WARNINGS = [
  { type: 'ExperimentalWarning', starts: 'SOCKS5 proxy support is experimental' },
  { type: 'DeprecationWarning', code: 'DEP0123' },
];
let socksWarningsQuiet = false;

/**
 * Drops the warnings undici's SOCKS5 agent causes (SOCKS_WARNINGS): two lines on stderr at every
 * run of a cron job that goes through a SOCKS proxy, about undici's code, and nothing its user can
 * act on. Every other warning is printed as Node prints it. Called when a SOCKS5 proxy is used.
 */
export function quietSocksWarnings(): void {
  if (socksWarningsQuiet) return;
  socksWarningsQuiet = true;
  const emit = process.emitWarning.bind(process) as (warning: string | Error, ...rest: unknown[]) => void;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    // emitWarning(warning, type, code) or emitWarning(warning, { type, code }).
    const options =
      typeof rest[0] === 'object' && rest[0] !== null
        ? (rest[0] as { type?: string; code?: string })
        : { type: rest[0] as string | undefined, code: rest[1] as string | undefined };
    const text = typeof warning === 'string' ? warning : warning.message;
    const undicis = SOCKS_WARNINGS.some(
      (known) =>
        known.type === options.type &&
        (known.code === undefined || known.code === options.code) &&
        (known.starts === undefined || text.startsWith(known.starts)),
    );
    if (!undicis) emit(warning, ...rest);
  }) as typeof process.emitWarning;
}
