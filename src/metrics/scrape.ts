/**
 * What `mon metrics serve` answers a scrape, from the exporter's last figures (a scrape never
 * calls the API): the credential checked first, then /metrics, /probe?profile=NAME, /-/healthy
 * and /-/ready, in the Prometheus text format or OpenMetrics as the scraper's Accept asks.
 */
import type { Exporter } from '../fleet/exporter.js';
import { type Reply, type ServerRequest, sameSecret } from '../server/index.js';

/** What a scraper must present: a bearer token or user:password (basic auth), or neither. */
export interface Credentials {
  token?: string;
  basic?: string;
}

const PLAIN = { 'content-type': 'text/plain; charset=utf-8' };

/** The answers to a scraper without the credential asked for. */
const NO_TOKEN: Reply = {
  status: 401,
  headers: { 'www-authenticate': 'Bearer realm="mon"', ...PLAIN },
  body: 'a bearer token is needed\n',
};
const NO_BASIC: Reply = {
  status: 401,
  headers: { 'www-authenticate': 'Basic realm="mon", charset="UTF-8"', ...PLAIN },
  body: 'a user and password are needed\n',
};

/** The credential of `authorization: <scheme> <credential>`. */
function credential(header: string | undefined, scheme: 'Bearer' | 'Basic'): string | undefined {
  const match = new RegExp(`^${scheme}\\s+(\\S+)\\s*$`, 'i').exec(header ?? '');
  return match?.[1];
}

/** user:password of a basic credential. */
function decoded(base64: string | undefined): string | undefined {
  return base64 === undefined ? undefined : Buffer.from(base64, 'base64').toString('utf8');
}

/** The refusal of a request without the credential asked for; undefined when it has it (or none is asked for). */
function refusal(request: ServerRequest, { token, basic }: Credentials): Reply | undefined {
  const { authorization } = request.headers;
  if (token !== undefined && !sameSecret(credential(authorization, 'Bearer'), token)) return NO_TOKEN;
  if (basic !== undefined && !sameSecret(decoded(credential(authorization, 'Basic')), basic)) return NO_BASIC;
  return undefined;
}

/** The exposition the scraper asked for: OpenMetrics when its Accept names it, else the Prometheus text format. */
function exposition(accept: string | undefined, exporter: Exporter, only: string | undefined): Reply {
  const openMetrics = /application\/openmetrics-text/i.test(accept ?? '');
  return {
    status: 200,
    headers: {
      'content-type': openMetrics
        ? 'application/openmetrics-text; version=1.0.0; charset=utf-8'
        : 'text/plain; version=0.0.4; charset=utf-8',
    },
    body: exporter.exposition(openMetrics ? 'openmetrics' : 'text', only),
  };
}

/** /probe?profile=NAME: one account's figures; 400 without a name, 404 for one not served. */
function probe(url: URL, accept: string | undefined, exporter: Exporter): Reply {
  const profile = url.searchParams.get('profile');
  if (!profile) return { status: 400, headers: PLAIN, body: 'give ?profile=NAME\n' };
  if (!exporter.has(profile))
    return {
      status: 404,
      headers: PLAIN,
      body: `no account of that name is served; served: ${exporter.names().join(', ')}\n`,
    };
  return exposition(accept, exporter, profile);
}

/** The handler of every request the exporter's server takes (GET and HEAD). */
export function scrapeHandler(exporter: Exporter, credentials: Credentials): (request: ServerRequest) => Reply {
  return (request) => {
    const refused = refusal(request, credentials);
    if (refused) return refused;
    const url = new URL(request.path, 'http://exporter');
    const { accept } = request.headers;
    switch (url.pathname) {
      case '/metrics':
        return exposition(accept, exporter, undefined);
      case '/probe':
        return probe(url, accept, exporter);
      case '/-/healthy':
        return { status: 200, headers: PLAIN, body: 'OK\n' };
      case '/-/ready':
        return exporter.ready()
          ? { status: 200, headers: PLAIN, body: 'ready\n' }
          : { status: 503, headers: PLAIN, body: 'not every account was read yet\n' };
      default:
        return {
          status: 404,
          headers: PLAIN,
          body: 'not found: /metrics, /probe?profile=NAME, /-/healthy, /-/ready\n',
        };
    }
  };
}
