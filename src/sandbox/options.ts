/** What a sandbox is started with, and what a running one offers (README.md, Using it from code). */
import type { LiveFleet, Transition } from './live.js';
import type { RetryPolicy } from './webhooks.js';

export interface SandboxOptions {
  /** default '127.0.0.1'; anything that is not loopback is refused */
  host?: string;
  /** default 0 (ephemeral) */
  port?: number;
  /**
   * Load the state from this JSON file when it exists (else seed and save it); save after
   * every mutation with an atomic write. A corrupt file throws an Error naming the file and
   * `mon sandbox reset`. An explicit `seed` or `computers` that differs from the saved state
   * re-seeds (reported through onNotice).
   */
  stateFile?: string;
  /** PRNG seed, default 1 */
  seed?: number;
  /**
   * The primary subscriber's key, default SANDBOX_API_KEY: sandboxes given keys of their own
   * stand for separate accounts (`--profiles` is tested and benchmarked that way).
   */
  apiKey?: string;
  /** how many computers to seed for the primary subscriber, default 40 */
  computers?: number;
  /** default 400 requests per 60 000 ms, per key (api-v2.5, Limits) */
  rateLimit?: { requests: number; windowMs: number };
  /** default true; false: ticket mutes get 422 on ticket_number */
  ticketIntegration?: boolean;
  /** clock in ms, default Date.now: missing, installers, mute expiry, seeding around today */
  now?: () => number;
  /** record every request in RunningSandbox.requests; default true (turn off for long runs) */
  recordRequests?: boolean;
  /** fold the state file's journal into a new snapshot past this many bytes (default 2 MiB; tests set it low) */
  compactJournalBytes?: number;
  /** receives notices such as a re-seed of the state file */
  onNotice?: (message: string) => void;
  /**
   * The living fleet (live.ts): simulated time passes `speed` times as fast as `now`, from
   * `now()` at the start; every answer is computed against the simulated clock. Kept in memory:
   * a state file is not read or written.
   */
  live?: { speed: number };
  /** serve HTTPS with this certificate and key (PEM; tls.ts makes them); default plain HTTP */
  tls?: { cert: string; key: string };
  /** addresses the sandbox POSTs each plugin result's change of state to (webhooks.ts) */
  webhooks?: readonly string[];
  /** retries of webhook deliveries; tests shorten them */
  webhookRetry?: Partial<RetryPolicy>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  form: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export interface RunningSandbox {
  /** e.g. 'http://127.0.0.1:43121': no trailing slash and no /v2.5 */
  url: string;
  /** the primary subscriber's key */
  apiKey: string;
  /** a second subscriber's key */
  otherApiKey: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** the living fleet, when started with `live` */
  live: LiveFleet | undefined;
  /**
   * Moves the living fleet's clock forward by `seconds` of simulated time and simulates them
   * (what `POST /_sandbox/tick` does); the transitions made, in order. Webhooks are sent for each.
   */
  tick(seconds: number): Transition[];
  /** resolves when every webhook delivery queued so far is delivered or given up */
  webhooksSettled(): Promise<void>;
  /** stops listening, closes idle and keep-alive sockets, resolves when done */
  close(): Promise<void>;
}
