import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, BRIEF_LOCK, isTempOf, LockTrouble } from '../config/files.js';
import { removeStaleTemps } from '../config/trust.js';
import { UsageError } from '../errors.js';
import type { RateBudget } from './client.js';
import { systemClock, type Clock } from '../clock.js';
import { quoted } from '../text/escape.js';

/** The API's limit: 400 requests per minute, all requests (api-v2.5, Limits). */
export const RATE_LIMIT = { requests: 400, windowMs: 60_000 };

/**
 * How much longer than the server's window the ledger keeps a slot: one second a minute. An
 * answer faster than that keeps its slot's admission time (see claim), which saves a second
 * ledger write for nearly every request.
 */
export function slack(limit: RateLimit): number {
  return limit.windowMs / 60;
}

/**
 * The most slots a process takes ahead in one ledger write, for its next requests: a command of
 * many requests (a bulk mute, `--all`) then writes the ledger about once for every nine requests
 * rather than once for each. At most this many slots are left unused when the command ends (the
 * budget then counts them for the rest of their window: a few of 400 a minute).
 */
const MAX_AHEAD = 8;

export interface RateLimit {
  requests: number;
  windowMs: number;
}

export interface SharedBudget extends RateBudget {
  readonly limit: RateLimit;
  /** Where the send times are kept (named after a fingerprint of the key, never the key). */
  readonly ledgerFile: string;
}

/**
 * The rate budget of one API key, shared by every `mon` process of the user: a sliding window
 * of send times in `<configDir>/rate/<fingerprint of the key>.json` (never the key), read
 * and updated under an exclusive lock file. When the window is full, take() waits for the
 * oldest send to leave it, rather than failing: ten cron jobs started at once queue up instead
 * of earning a 429 storm. MON_RATE_LIMIT=<requests>/<seconds> narrows the window (tests, or a
 * key shared with other tools). Where the folder cannot be written, the budget is kept for this
 * process only. `onHold` hears of each wait as it begins (until when, by `clock`) and ends
 * (undefined), so that a long one can be said (src/output/progress.ts, WaitNotice).
 */
export function sharedBudget(
  dir: string,
  apiKey: string,
  env: Record<string, string | undefined>,
  clock: Clock = systemClock,
  log?: (line: string) => void,
  onHold?: (hold: { until: number; requests: number; windowMs: number } | undefined) => void,
): SharedBudget {
  return new KeyBudget(dir, apiKey, parseLimit(env.MON_RATE_LIMIT) ?? RATE_LIMIT, clock, log, onHold);
}

/** A request of this process waiting for its slot. */
interface Waiting {
  signal: AbortSignal;
  resolve: (answered: () => Promise<void>) => void;
  reject: (error: unknown) => void;
}

/** One ledger write's outcome: how many waiting requests it admitted, how many slots it took ahead, or how long to wait. */
interface Batch {
  stamp: number;
  admitted: number;
  reserved: number;
  wait: number;
}

/** The budget of one key (sharedBudget). */
class KeyBudget implements SharedBudget {
  readonly ledgerFile: string;
  private readonly ledger: Ledger;
  /** The send times, when the ledger cannot be kept (this process's own budget). */
  private readonly local: number[] = [];
  private shared = true;
  /**
   * Requests of this process wait here first, oldest first, so they do not all contend for the
   * lock file: one ledger write admits every one of them that fits in the window (a bulk mute
   * has several in flight), rather than one write each.
   */
  private readonly waiting: Waiting[] = [];
  private pumping = false;
  /**
   * Slots taken ahead (their admission times) for this process's next requests, and how many
   * this process has been admitted: the more it has sent, the more it takes ahead (up to
   * MAX_AHEAD), so that a command of one or two requests never takes any.
   */
  private readonly ahead: number[] = [];
  private admittedHere = 0;

  constructor(
    private readonly dir: string,
    apiKey: string,
    readonly limit: RateLimit,
    private readonly clock: Clock,
    private readonly log?: (line: string) => void,
    private readonly onHold?: (hold: { until: number; requests: number; windowMs: number } | undefined) => void,
  ) {
    this.ledger = new Ledger(join(dir, 'rate', `${keyFingerprint(apiKey)}.json`), clock, log);
    this.ledgerFile = this.ledger.file;
  }

  take(signal: AbortSignal): Promise<() => Promise<void>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ signal, resolve, reject });
      void this.pump();
    });
  }

  /** Runs `change` on the shared ledger, or on this process's list where there is none. */
  private async withSent<T>(signal: AbortSignal, change: (sent: number[], now: number) => T): Promise<T> {
    if (this.shared) {
      try {
        return await this.ledger.update(signal, change);
      } catch (error) {
        if (!isFsTrouble(error) && !(error instanceof LockTrouble)) throw error;
        this.shared = false; // read-only or missing home, or a lock that cannot be had: keep the budget in this process
        if (error instanceof LockTrouble)
          this.log?.(`rate ledger: ${error.message}; this process keeps its own budget`);
        else
          this.log?.(
            `rate ledger: cannot keep it in ${join(this.dir, 'rate')} (${(error as NodeJS.ErrnoException).code}); this run counts its requests in memory`,
          );
      }
    }
    return change(this.local, this.clock.now());
  }

  /**
   * The server counts a request when it arrives, which may be well after it was admitted (a
   * slow connect): once it has been answered, its slot is re-dated to that moment. An answer
   * within the slack needs no second ledger write: the window is kept that much longer than the
   * server's (admit), which covers the difference.
   */
  private answeredAfter(stamp: number): () => Promise<void> {
    return async () => {
      if (this.clock.now() - stamp < slack(this.limit)) return;
      try {
        await this.withSent(AbortSignal.timeout(1_000), (sent, now) => redate(sent, stamp, now));
      } catch {
        // best effort: the slot keeps the time it was admitted
      }
    };
  }

  /**
   * A slot taken ahead for the request at the head of the line, if one is still fresh: the
   * server must see the request within the ledger's slack of the slot's time (admit), so one
   * older than half of it is dropped (it still counts until its window ends).
   */
  private takeAhead(): boolean {
    while (this.ahead.length > 0) {
      const stamp = this.ahead.shift()!;
      if (this.clock.now() - stamp > slack(this.limit) / 2) continue;
      this.admittedHere++;
      this.waiting.shift()!.resolve(this.answeredAfter(stamp));
      return true;
    }
    return false;
  }

  /** Admits the waiting requests in order, as many per ledger write as fit, waiting for the window when none does. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0) {
        const head = this.waiting[0]!;
        if (head.signal.aborted) {
          this.waiting.shift();
          head.reject(head.signal.reason);
          continue;
        }
        if (this.takeAhead()) continue;
        try {
          await this.admitBatch(head.signal);
        } catch (error) {
          // The first in line was aborted, or its ledger write failed: it fails, the others go on.
          if (this.waiting[0] === head) this.waiting.shift();
          head.reject(error);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** One ledger write: admits what fits, or waits (for the head of the line) until the window has room. */
  private async admitBatch(signal: AbortSignal): Promise<void> {
    const { stamp, admitted, reserved, wait } = await this.withSent(signal, (sent, now) => this.fill(sent, now));
    this.admittedHere += admitted;
    for (let i = 0; i < reserved; i++) this.ahead.push(stamp);
    for (const taken of this.waiting.splice(0, admitted)) taken.resolve(this.answeredAfter(stamp));
    if (admitted > 0) return;
    // A little jitter, so processes that wait for the same slot do not all wake at once.
    const ms = wait + Math.floor(Math.random() * 20);
    this.onHold?.({ until: this.clock.now() + ms, ...this.limit });
    try {
      await this.clock.sleep(ms, signal);
    } finally {
      this.onHold?.(undefined);
    }
  }

  /** Records in `sent` the waiting requests that fit, and the slots to take ahead while the window has room. */
  private fill(sent: number[], now: number): Batch {
    let count = 0;
    let until = 0;
    // An aborted one further back stops the batch; pump drops it in its turn.
    while (count < this.waiting.length && !this.waiting[count]!.signal.aborted) {
      until = admit(sent, now, this.limit);
      if (until > 0) break;
      count++;
    }
    // Slots ahead, while the window has room: fewer than this process had been admitted before.
    let reserved = 0;
    const wanted = count > 0 ? Math.min(MAX_AHEAD, this.admittedHere - 1) : 0;
    while (until === 0 && reserved < wanted && admit(sent, now, this.limit) === 0) reserved++;
    return { stamp: now, admitted: count, reserved, wait: until };
  }
}

/**
 * Drops sends that left the window; records one more when there is room and returns 0, or
 * returns how long until the oldest leaves. Mutates `sent`.
 */
export function admit(sent: number[], now: number, limit: RateLimit): number {
  // A slot may be dated up to the slack before the server saw its request.
  const windowMs = limit.windowMs + slack(limit);
  const from = now - windowMs;
  let drop = 0;
  while (drop < sent.length && sent[drop]! <= from) drop++;
  sent.splice(0, drop);
  // A clock set back leaves future entries behind: never wait longer than one window for them.
  while (sent.length > 0 && sent[sent.length - 1]! > now + windowMs) sent.pop();
  if (sent.length < limit.requests) {
    sent.push(now);
    return 0;
  }
  return Math.max(1, sent[sent.length - limit.requests]! + windowMs - now);
}

/** Moves one slot stamped `from` to `to` (a later time), keeping the list sorted. */
export function redate(sent: number[], from: number, to: number): void {
  const at = sent.indexOf(from);
  if (at < 0 || to <= from) return;
  sent.splice(at, 1);
  let i = sent.length;
  while (i > 0 && sent[i - 1]! > to) i--;
  sent.splice(i, 0, to);
}

/** The ledger file and its lock. */
class Ledger {
  readonly lock: string;
  private tidied = false;

  constructor(
    readonly file: string,
    private readonly clock: Clock,
    private readonly log?: (line: string) => void,
  ) {
    this.lock = `${file}.lock`;
  }

  /** Runs `change` on the recorded send times under the lock and saves them. */
  async update<T>(signal: AbortSignal, change: (sent: number[], now: number) => T): Promise<T> {
    // Held for the milliseconds of a read and a write; past the wait the process keeps its own budget instead of hanging.
    const held = await acquireLock(this.lock, {
      ...BRIEF_LOCK,
      signal,
      log: this.log && ((line) => this.log!(`rate ledger: ${line}`)),
      clock: this.clock,
    });
    this.tidy();
    try {
      // One descriptor to read and write: the lock makes this process the only one at it.
      const fd = openSync(this.file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      try {
        const text = readFileSync(fd, 'utf8');
        const sent = parseSent(text);
        const result = change(sent, this.clock.now());
        // Written over the old text in place, the rest padded with spaces (JSON allows them): a
        // temporary file and a rename, as other state files are written, cost 30 times as much
        // on ext4, which flushes a file replaced by rename, at every request. A ledger that
        // shrank to less than half (a raised MON_RATE_LIMIT no longer in use) is cut to size.
        // A process killed mid-write leaves a damaged ledger, which is read as empty.
        const next = JSON.stringify({ version: 1, sent });
        if (next.length * 2 < text.length) {
          writeSync(fd, next, 0);
          ftruncateSync(fd, Buffer.byteLength(next));
        } else {
          writeSync(fd, next.length < text.length ? next.padEnd(text.length) : next, 0);
        }
        return result;
      } finally {
        closeSync(fd);
      }
    } finally {
      held.release();
    }
  }

  /** Temporaries an older mon, which wrote the ledger by rename, left when it was killed mid-write. */
  private tidy(): void {
    if (this.tidied) return;
    this.tidied = true;
    removeStaleTemps(this.file, isTempOf(this.file));
  }
}

/** The send times in a ledger's text; a missing or damaged ledger is an empty one (it only ever holds a minute). */
function parseSent(text: string): number[] {
  try {
    const parsed = JSON.parse(text) as { sent?: unknown };
    const sent = Array.isArray(parsed.sent)
      ? parsed.sent.filter((t): t is number => typeof t === 'number' && Number.isFinite(t))
      : [];
    return sent.sort((a, b) => a - b);
  } catch {
    return [];
  }
}

/**
 * The ledger's name: FNV-1a (32 bits) of the key's UTF-8 bytes, 8 hex digits. So short on
 * purpose: tens of thousands of possible keys share each name, so it cannot give a key away
 * (the folder is the user's own anyway), while two keys of one user almost never share one, and
 * if they did, both would only be held to one budget. node:crypto's hashes would do as well, but
 * loading node:crypto costs about 5 ms of every command's start.
 */
export function keyFingerprint(apiKey: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(apiKey, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function isFsTrouble(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    typeof code === 'string' && /^(EACCES|EPERM|EROFS|ENOTDIR|ENOSPC|EDQUOT|EISDIR|ENOENT|EEXIST|EIO|ELOOP)$/.test(code)
  );
}

/** MON_RATE_LIMIT=<requests>/<seconds>, e.g. 200/60; a wrong value is a usage error, not ignored. */
export function parseLimit(text: string | undefined): RateLimit | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text.trim());
  const requests = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || requests < 1 || requests > 100_000 || seconds <= 0 || seconds > 3600) {
    throw new UsageError(`MON_RATE_LIMIT: must be <requests>/<seconds>, e.g. 200/60 (got ${quoted(text)})`);
  }
  return { requests, windowMs: Math.round(seconds * 1000) };
}
