import { UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

/** localhost, 127.0.0.0/8 and ::1: the only hosts plain http may reach. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Whether requests to a base URL stay on this machine: a loopback host (the sandbox). */
export function isLoopbackUrl(url: URL): boolean {
  return isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
}

/**
 * Checks a base URL before any connection is made: HTTPS only, except loopback
 * (docs/design/cli-contract.md, Behaviour). `source` names where the URL came from, for the message.
 * Trailing slashes and a trailing `/v2.5` are dropped: routes add the version themselves, and
 * a URL copied from the reference or a banner (`…/v2.5/`) would otherwise be doubled.
 */
export function parseBaseUrl(raw: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${source}: ${quoted(raw)} is not a URL`, 'use the form https://<subdomain>.<service-domain>');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${source}: plain http is refused for ${url.hostname}; the API is served over HTTPS only`,
      'use https://, or http:// only for a loopback host such as 127.0.0.1',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source}: ${quoted(url.protocol)} is not supported; use https://`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(`${source}: give only scheme, host, port and path (no credentials, query or fragment)`);
  }
  url.pathname = url.pathname
    .replace(/\/+$/, '')
    .replace(/\/v2\.5$/i, '')
    .replace(/\/+$/, '');
  return url;
}
