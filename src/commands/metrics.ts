import { verb, type ResourceSpec } from '../spec/spec.js';

const DEFAULT_LISTEN = '127.0.0.1:9860';

/** `mon metrics serve`: a Prometheus exporter that reads on its own schedule and serves from what it read. */
export const metrics: ResourceSpec = {
  name: 'metrics',
  summary: 'Serve the figures of status to Prometheus',
  examples: ['mon --all-profiles metrics serve', 'mon -p acme metrics serve --listen 127.0.0.1:9861 --refresh 10m'],
  verbs: [
    verb({
      name: 'serve',
      jsonOutput: false,
      isDefault: true,
      untilStopped: true,
      spansAccounts: true,
      reads: true,
      summary: 'A Prometheus exporter: /metrics, /probe?profile=NAME',
      description:
        "Reads each account (-p, --profiles, --all-profiles; the default profile otherwise) every --refresh, staggered, through the collection `mon status` uses, and answers scrapes from the last figures: a scrape never calls the API. /metrics has every account, /probe?profile=NAME one (Prometheus's multi-target pattern), /-/healthy answers 200 while it runs, /-/ready 200 once every account was read once. The Prometheus text format, or OpenMetrics when the scraper's Accept asks for it; the families of `mon help fleet`. A read that fails keeps the last figures and sets mon_up 0; mon_last_success_timestamp_seconds says how old they are (started while an account is down: when its last recorded read began). A read that succeeds records the account's day in mon's history as `mon status` does (mon history; MON_HISTORY=0 records none). A read of N requests waits N / 40 minutes at least before the next, so refreshes take at most a tenth of the account's 400 requests a minute. SIGHUP reads the profiles again (--profiles, --all-profiles); SIGTERM or Ctrl-C ends it once the scrapes in flight are answered. Loopback unless --listen says otherwise; another address needs --auth-token-file (the scraper sends it as a bearer token: authorization credentials_file) or --basic-auth-file (user:password; basic_auth) and --tls-cert/--tls-key or --insecure. No key, token or account URL is in a metric or a log line.",
      options: [
        {
          flags: '--listen <address>',
          description: 'address and port to serve on (host:port, [v6]:port, :port for 127.0.0.1)',
          defaultText: DEFAULT_LISTEN,
        },
        {
          flags: '--refresh <duration>',
          description: 'how often each account is read (1m to 24h)',
          rule: { type: 'duration' },
          defaultText: '5m',
        },
        {
          flags: '--auth-token-file <file>',
          description: 'a file holding the bearer token every request must present',
        },
        {
          flags: '--basic-auth-file <file>',
          description: 'a file holding user:password, for HTTP basic auth instead of a token',
        },
        { flags: '--tls-cert <file>', description: 'serve HTTPS with this certificate (PEM), with --tls-key' },
        { flags: '--tls-key <file>', description: 'the private key of --tls-cert (PEM)' },
        {
          flags: '--insecure',
          description: 'plain HTTP on an address other than loopback (still with --auth-token-file)',
        },
      ],
      examples: [
        'mon --all-profiles metrics serve',
        'mon --profiles acme,globex metrics serve --refresh 10m',
        'mon --all-profiles metrics serve --listen 0.0.0.0:9860 --auth-token-file /etc/mon/token --tls-cert /etc/mon/cert.pem --tls-key /etc/mon/key.pem',
      ],
      async run({ opts }, ctx) {
        // The server (node:http) and the exporter (the client's module, undici, through fleet/):
        // loaded by this command alone.
        const { planMetrics, serveMetrics } = await import('../metrics/serve.js');
        const plan = await planMetrics(ctx, { ...opts, listen: opts.listen ?? DEFAULT_LISTEN });
        const { address, names, refreshSec } = plan;
        if (
          ctx.dryRun.changesNothing(
            `read ${names.join(', ')} every ${refreshSec} s and serve their metrics on ${address.host}:${address.port}`,
          )
        )
          return;
        await serveMetrics(ctx, plan);
      },
    }),
  ],
};
