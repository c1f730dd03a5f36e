/**
 * One delivery in, one answer out: the receiver of `mon events listen`. A delivery is answered
 * 2xx only once it is handled — handed to --forward-to (which accepted it), to --exec, written to
 * --output-file (on disk) and to stdout — and 5xx when any of that failed, so the sender retries.
 * A retry of a delivery already handled (its event_id, or its body when it has none) is answered
 * 2xx and not shown again.
 */
import type { Forwarder } from '../api/forward.js';
import type { Reply, ServerRequest } from '../server/index.js';
import { sameSecret } from '../server/index.js';
import type { ExecRunner } from './exec.js';
import { wanted, type EventFilter } from './filter.js';
import type { Journal } from './journal.js';
import { eventJson, understand, type Delivery } from './payload.js';
import type { RecentIds } from './seen.js';

export interface ListenerOptions {
  /** `--path`: where deliveries are taken (`/events`). */
  path: string;
  /** A secret the sender presents as the path's last segment or as `Authorization: Bearer`. */
  secret?: string;
  filter: EventFilter;
  /** The account to name on each event (the profile given), when the payload does not. */
  account?: string;
  ids: RecentIds;
  journal?: Journal;
  forward?: Forwarder;
  exec?: ExecRunner;
  /** Shows one event (stdout): resolves once it is written. */
  print(delivery: Delivery, line: string): Promise<void>;
  /** A line on stderr (a test delivery answered, a hand-off that failed). */
  notice(message: string): void;
  /** --max-events: `done` resolves once this many are handled. */
  maxEvents?: number;
  now(): number;
}

/** What the listener did, for the closing line and the tests. */
export interface ListenerCounts {
  received: number;
  handled: number;
  duplicates: number;
  filtered: number;
  tests: number;
  failed: number;
  refused: number;
  execFailures: number;
  forwardFailures: number;
}

/** The errors of --forward-to, already reported when they reach handle(). */
const forwardRefusals = new WeakSet<object>();

const text = (status: number, body: string): Reply => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: `${body}\n`,
});

export class Listener {
  readonly counts: ListenerCounts = {
    received: 0,
    handled: 0,
    duplicates: 0,
    filtered: 0,
    tests: 0,
    failed: 0,
    refused: 0,
    execFailures: 0,
    forwardFailures: 0,
  };
  /** Resolves once --max-events are handled. */
  readonly done: Promise<void>;
  private finish!: () => void;
  private finished = false;
  /** Events handled or being handled, against --max-events. */
  private taken = 0;
  /** Deliveries being handled, by id: a retry that comes meanwhile waits for the first's outcome. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly base: string;

  constructor(private readonly options: ListenerOptions) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.base = options.path === '/' ? '' : options.path.replace(/\/+$/, '');
  }

  /** Whether the request may deliver: the path, and the secret when one is set. */
  private admitted(request: ServerRequest): Reply | undefined {
    const pathname = new URL(request.path, 'http://receiver').pathname;
    const { secret } = this.options;
    if (secret === undefined) return pathname === (this.base || '/') ? undefined : text(404, 'not found');
    if (pathname.startsWith(`${this.base}/`) && !pathname.slice(this.base.length + 1).includes('/')) {
      if (sameSecret(decodeURIComponent(pathname.slice(this.base.length + 1)), secret)) return undefined;
    }
    const auth = request.headers.authorization;
    const bearer = typeof auth === 'string' && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
    if (pathname === (this.base || '/') && sameSecret(bearer, secret)) return undefined;
    // The same answer for a wrong secret as for a wrong path: nothing to learn from trying.
    return text(404, 'not found');
  }

  async handle(request: ServerRequest): Promise<Reply> {
    const refusal = this.admitted(request);
    if (refusal) {
      this.counts.refused++;
      return refusal;
    }
    this.counts.received++;
    if (this.finished) return text(503, 'not taking more events');
    const delivery = understand(request.body, new Date(this.options.now()), this.options.account);
    const { id } = delivery.understood;
    for (;;) {
      if (this.options.ids.has(id)) {
        this.counts.duplicates++;
        return text(200, 'duplicate: already handled');
      }
      const earlier = this.inFlight.get(id);
      if (!earlier) break;
      if (await earlier) {
        this.counts.duplicates++;
        return text(200, 'duplicate: already handled');
      }
    }
    const outcome = this.process(delivery, request);
    this.inFlight.set(
      id,
      outcome.then(
        () => true,
        () => false,
      ),
    );
    try {
      return await outcome;
    } catch (error) {
      this.counts.failed++;
      // A refusal of --forward-to said so already; anything else (a full disk) is said here.
      if (!forwardRefusals.has(error as object))
        this.options.notice(
          `event ${id} not handled: ${error instanceof Error ? error.message : String(error)}; answered 503 so that it is sent again`,
        );
      return text(503, 'not handled: send it again');
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async process(delivery: Delivery, request: ServerRequest): Promise<Reply> {
    const { understood } = delivery;
    const { options } = this;
    if (!wanted(understood, options.filter)) {
      if (understood.kind === 'test' || understood.kind === 'connection_test') {
        this.counts.tests++;
        options.notice(
          `${understood.kind === 'connection_test' ? 'connection test' : 'test delivery'} ${understood.id} received and answered (--include-tests shows it)`,
        );
      } else this.counts.filtered++;
      options.ids.add(understood.id);
      return text(200, 'ok');
    }
    // --max-events: a place is kept for each event being handled, so no more than N are shown.
    if (options.maxEvents !== undefined) {
      if (this.taken >= options.maxEvents) return text(503, 'not taking more events');
      this.taken++;
    }
    try {
      return await this.handOn(delivery, request);
    } catch (error) {
      this.taken--;
      throw error;
    }
  }

  private async handOn(delivery: Delivery, request: ServerRequest): Promise<Reply> {
    const { understood } = delivery;
    const { options } = this;
    const line = JSON.stringify(eventJson(delivery));
    if (options.forward) {
      try {
        await options.forward.forward(
          request.body,
          typeof request.headers['content-type'] === 'string' ? request.headers['content-type'] : undefined,
        );
      } catch (error) {
        this.counts.forwardFailures++;
        if (typeof error === 'object' && error !== null) forwardRefusals.add(error);
        options.notice(
          `--forward-to: event ${understood.id} not accepted: ${error instanceof Error ? error.message : String(error)} (${this.counts.forwardFailures} so far); the sender will send it again`,
        );
        throw error;
      }
    }
    if (options.exec) {
      const failure = await options.exec.run(line, { MON_EVENT_ID: understood.id, MON_EVENT_KIND: understood.kind });
      if (failure !== undefined) {
        this.counts.execFailures++;
        options.notice(`--exec: for event ${understood.id}: ${failure} (${this.counts.execFailures} failed so far)`);
      }
    }
    if (options.journal) await options.journal.append(line);
    await options.print(delivery, line);
    options.ids.add(understood.id);
    this.counts.handled++;
    if (options.maxEvents !== undefined && this.counts.handled >= options.maxEvents && !this.finished) {
      this.finished = true;
      this.finish();
    }
    return text(200, 'ok');
  }
}
