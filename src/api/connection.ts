/**
 * The connection pool a client sends through: the proxies the environment names (proxy.ts),
 * certificates always verified, and the sandbox's local CA trusted for a loopback https base only.
 */
import { EnvHttpProxyAgent, type Dispatcher } from './undici.js';
import { readFileSync } from 'node:fs';
import type { AttemptSettings } from './attempt.js';
import { isLoopbackHost, isLoopbackUrl } from './base-url.js';
import { endpointOf, proxiesFrom, quietSocksWarnings } from './proxy.js';

/** What the pool is made from (ClientConfig's fields of the same names). */
export interface ConnectionConfig {
  timeoutMs: number;
  env: Record<string, string | undefined>;
  /** The sandbox's CA (PEM), trusted besides the usual ones for a loopback https base only. */
  loopbackCa?: string;
}

/**
 * The pool for requests to `base`, and the proxy it goes through for messages (undefined when
 * none). A proxy undici cannot use is exit 2 here, before anything is sent (src/api/proxy.ts).
 */
export function openConnection(
  base: URL,
  config: ConnectionConfig,
): { dispatcher: Dispatcher; proxy: AttemptSettings['proxy'] } {
  const { env } = config;
  // undici is handed these, so that it never reads the variables itself ('' for none).
  const proxies = proxiesFrom(env);
  // Plain http is let through only to a loopback host (base-url.ts), because the key then never
  // leaves the machine: a proxy on another host would carry it there in clear (and reach its
  // own loopback, not this one's), so such a proxy is passed by, as Go's clients pass by one
  // for localhost. A proxy on this machine is still used.
  const httpProxy = proxies['http:'];
  if (base.protocol === 'http:' && httpProxy && !isLoopbackHost(httpProxy.hostname)) delete proxies['http:'];
  const proxy = proxies[base.protocol as 'http:' | 'https:'];
  const socks = proxies['http:']?.socks === true || proxies['https:']?.socks === true;
  if (socks) quietSocksWarnings();
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: proxies['http:']?.url ?? '',
    httpsProxy: proxies['https:']?.url ?? '',
    noProxy: env.NO_PROXY ?? env.no_proxy,
    // Certificates are verified whatever NODE_TLS_REJECT_UNAUTHORIZED says (README, Security):
    // Node's default follows that variable; an explicit option does not.
    connect: { timeout: config.timeoutMs, rejectUnauthorized: true, ...loopbackTrust(base, config) },
    requestTls: { rejectUnauthorized: true },
    // Not beside a SOCKS5 proxy: undici's SOCKS5 agent speaks TLS to the proxy whenever proxyTls
    // is given, which no SOCKS5 proxy answers. An https:// proxy beside it is still verified:
    // bin/mon has taken NODE_TLS_REJECT_UNAUTHORIZED out of the environment Node reads.
    ...(socks ? {} : { proxyTls: { rejectUnauthorized: true } }),
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });
  return { dispatcher, proxy: proxy && { proxy, target: endpointOf(base) } };
}

/** `ca` for the connection: the system's and NODE_EXTRA_CA_CERTS' certificates and the loopback CA, for a loopback https base only. */
function loopbackTrust(base: URL, config: ConnectionConfig): { ca?: string[] } {
  if (config.loopbackCa === undefined || base.protocol !== 'https:' || !isLoopbackUrl(base)) return {};
  const extra = config.env.NODE_EXTRA_CA_CERTS;
  let extraPem: string[] = [];
  try {
    if (extra) extraPem = [readFileSync(extra, 'utf8')];
  } catch {
    // Node itself warns of an unreadable NODE_EXTRA_CA_CERTS and goes on without it
  }
  // node:tls is loaded here only: a plain http request never needs it (test/perf/startup.test.ts).
  const { rootCertificates } = process.getBuiltinModule('node:tls');
  return { ca: [...rootCertificates, ...extraPem, config.loopbackCa] };
}
