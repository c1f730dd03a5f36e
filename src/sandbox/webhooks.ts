/**
 * Outgoing webhooks of the sandbox (`--webhook URL`, repeatable), after the reference's Events
 * section. What the reference states is sent as it states it; what it leaves "not shown" (the
 * full payload, the kinds, signing, retries) is the sandbox's choice, listed in README.md,
 * Webhooks. Each event goes to every address once; a non-2xx answer, a dropped connection or a
 * timeout is retried with doubling backoff for a bounded time, then given up with one notice.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PluginStatus } from './model.js';
import { activeMute, renderComputer, renderGroup, renderPluginResult, type RenderCtx } from './render.js';
import type { Transition } from './live.js';

/** Word values of severity (the sandbox's choice: the reference does not show them). */
const SEVERITY: Record<PluginStatus, string> = {
  OK: 'ok',
  Informational: 'informational',
  Warning: 'warning',
  Alert: 'alert',
};
/** The integer codes kept for backward compatibility (the sandbox's choice, as Nagios counts: 0 OK, 1 Warning, 2 Alert, 3 other). */
const STATUS_CODE: Record<PluginStatus, number> = { OK: 0, Warning: 1, Alert: 2, Informational: 3 };

export interface RetryPolicy {
  /** first wait after a failed attempt, doubled after each (default 1 s) */
  firstDelayMs: number;
  /** longest wait between attempts (default 30 s) */
  maxDelayMs: number;
  /** no attempt starts later than this after the first (default 10 min) */
  giveUpAfterMs: number;
  /** an attempt without an answer by then has failed (default 10 s) */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  giveUpAfterMs: 600_000,
  timeoutMs: 10_000,
};

const newEventId = (prefix: string): string => `${prefix}${randomBytes(8).toString('hex')}`;

/** The JSON of one plugin result's change of state. */
export function transitionEvent(ctx: RenderCtx, t: Transition): Record<string, unknown> {
  const group = ctx.store.groups.get(t.computer.group);
  const mute = activeMute(t.result, ctx.nowSec);
  const rendered = renderPluginResult(ctx, t.result);
  return {
    event_id: newEventId('evt_'),
    event: 'plugin_result.state_changed',
    occurred_at: t.atSec,
    cause: t.cause,
    severity: SEVERITY[t.status],
    previous_severity: SEVERITY[t.previous],
    status_code: STATUS_CODE[t.status],
    previous_status: STATUS_CODE[t.previous],
    new_status: STATUS_CODE[t.status],
    mute_type: mute === null ? null : rendered.mute_type,
    is_hidden: t.computer.hidden || (group?.hidden ?? false) || !t.result.visible,
    plugin_result: rendered,
    computer: renderComputer(ctx, t.computer),
    group: group ? renderGroup(ctx, group) : null,
  };
}

/** A synthetic test delivery (`mon sandbox trigger test`): top-level svc_test, event_id svc_test_…. */
export function testEvent(nowSec: number): Record<string, unknown> {
  return {
    event_id: newEventId('svc_test_'),
    event: 'svc_test',
    svc_test: true,
    occurred_at: nowSec,
    message: 'A test delivery from the mon sandbox.',
  };
}

/** The reachability check (`mon sandbox trigger connection_test`). */
export function connectionTestEvent(nowSec: number): Record<string, unknown> {
  return { event_id: newEventId('svc_test_'), event: 'connection_test', svc_test: true, occurred_at: nowSec };
}

/** One POST; resolves with the status code, rejects on a network error or the timeout. */
function post(url: string, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'mon-sandbox-webhooks',
        },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export interface Delivery {
  url: string;
  /** the last answer's status, or undefined after a network error */
  status?: number;
  error?: string;
  attempts: number;
  delivered: boolean;
}

/** Sends events to the configured addresses, each with its own retries. */
export class WebhookSender {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly urls: readonly string[],
    private readonly retry: RetryPolicy,
    private readonly onNotice: (message: string) => void,
  ) {}

  /** Queues `event` to every address; the promise (for tests and `trigger`) settles when each is delivered or given up. */
  send(event: Record<string, unknown>): Promise<Delivery[]> {
    const body = JSON.stringify(event);
    const all = Promise.all(this.urls.map((url) => this.deliver(url, body, String(event.event_id))));
    this.pending.add(all);
    void all.finally(() => this.pending.delete(all));
    return all;
  }

  /** One attempt to each address, no retry: whether it answers (connection_test). */
  async probe(event: Record<string, unknown>): Promise<Delivery[]> {
    const body = JSON.stringify(event);
    return Promise.all(
      this.urls.map(async (url): Promise<Delivery> => {
        try {
          const status = await post(url, body, this.retry.timeoutMs);
          return { url, status, attempts: 1, delivered: status >= 200 && status < 300 };
        } catch (err) {
          return { url, error: (err as Error).message, attempts: 1, delivered: false };
        }
      }),
    );
  }

  private async deliver(url: string, body: string, eventId: string): Promise<Delivery> {
    const started = Date.now();
    let delay = this.retry.firstDelayMs;
    const result: Delivery = { url, attempts: 0, delivered: false };
    for (;;) {
      result.attempts++;
      try {
        result.status = await post(url, body, this.retry.timeoutMs);
        delete result.error;
        if (result.status >= 200 && result.status < 300) {
          result.delivered = true;
          return result;
        }
      } catch (err) {
        delete result.status;
        result.error = (err as Error).message;
      }
      if (this.closed || Date.now() + delay - started > this.retry.giveUpAfterMs) {
        const why = result.status !== undefined ? `HTTP ${result.status}` : (result.error ?? 'no answer');
        this.onNotice(
          `sandbox: webhook ${eventId} to ${url} given up after ${result.attempts} attempt${result.attempts === 1 ? '' : 's'} (last: ${why})`,
        );
        return result;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, delay);
        this.timers.add(timer);
      });
      delay = Math.min(delay * 2, this.retry.maxDelayMs);
    }
  }

  /** Stops retrying: waiting deliveries make one last attempt at most and give up. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) timer.unref();
  }
}
