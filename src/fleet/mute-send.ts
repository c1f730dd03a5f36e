/**
 * A bulk mute's writes: the PUTs of a plan sent through the one fan-out, what each row says
 * became of its target, the tally and the exit code the failures make.
 */
import type { ApiClient, PreparedRequest } from '../api/client.js';
import type { Attributes } from '../api/encode.js';
import { EXIT, InterruptedError, MonError, mostCommonExitCode, PartialFailureError } from '../errors.js';
import { muteState, type MuteState } from '../model/plugin-result.js';
import { fanOut, WRITE_CONCURRENCY } from './fan-out.js';
import {
  pastTense,
  type MuteAction,
  type MuteOutcome,
  type MutePlan,
  type MuteTarget,
  type NamedResult,
  type SentOutcome,
} from './mute.js';

/** How the PUTs go out. */
export interface SendOptions {
  /** Ctrl-C or SIGTERM: no PUT starts once it is aborted. */
  signal: AbortSignal;
  /** What cuts off the PUTs already on their way (a second signal); without it, `signal`. */
  inFlight?: AbortSignal;
  /** Told after each PUT that ended (the meter). */
  onEnded?: () => void;
  /** A mute's: the mute its PUTs set, for a row whose answer does not say. */
  sets?: MuteState;
}

/** What a write's row says became of its target: the mute the server answered, put back, or none. */
function after(
  action: MuteAction,
  target: MuteTarget,
  data: unknown,
  sets: MuteState | undefined,
): Pick<MuteOutcome, 'outcome' | 'previous' | 'mute'> {
  const { previous, restore } = target;
  if (restore !== undefined) return { outcome: restore === null ? 'unmuted' : 'restored', previous, mute: restore };
  if (action === 'unmute') return { outcome: 'unmuted', previous, mute: null };
  // As answered, whatever the time now: the row records the mute that was set.
  const answered = typeof data === 'object' && data !== null ? muteState(data as Record<string, unknown>, 0) : null;
  return { outcome: 'muted', previous, mute: answered ?? sets ?? null };
}

/** The mute a mute's attributes set, as the API reports it (the mute_type of a request is not that of a result). */
export function stateSet(attributes: Attributes): MuteState | undefined {
  const ticketUrl = typeof attributes.ticket_url === 'string' ? { ticket_url: attributes.ticket_url } : {};
  switch (attributes.mute_type) {
    case 'timed':
      return typeof attributes.mute_until === 'number'
        ? { mute_type: 'timed_mute', mute_until: attributes.mute_until, ...ticketUrl }
        : undefined;
    case 'ticket':
      return attributes.ticket_number === undefined
        ? undefined
        : { mute_type: 'ticket_muted', ticket_number: String(attributes.ticket_number), ...ticketUrl };
    case 'ignored':
      return { mute_type: 'muted_forever' };
    default:
      return undefined;
  }
}

/**
 * Sends the plan's PUTs (`requests[i]` for `plan.targets[i]`), a few at a time inside the rate
 * budget. Each failure is an outcome and the others go on (a ticket mute without a ticket
 * system, a 500). Once `signal` is aborted no PUT starts, and those on their way end as the
 * server answers them (or `inFlight`, --timeout or the deadline cuts them off), so what is
 * counted done is what the server confirmed. A PUT that never started, or was cut off by a
 * second signal, is neither done nor failed: a rerun selects it again if it was not applied.
 * Once UNANSWERED_IN_A_ROW PUTs in a row have reached no answer, no more start either (the
 * service is down: each would wait out its retries, a thousand of them up to MON_DEADLINE).
 * Returns the outcomes in the plan's order, those that ended.
 */
export async function sendMutes(
  client: ApiClient,
  plan: MutePlan,
  requests: readonly PreparedRequest[],
  options: SendOptions,
): Promise<SentOutcome[]> {
  const outcomes: SentOutcome[] = [];
  const unreachable = new AbortController();
  let unanswered = 0;
  await fanOut(
    plan.targets,
    WRITE_CONCURRENCY,
    AbortSignal.any([options.signal, unreachable.signal]),
    async (target, index) => {
      try {
        const { data } = await client.send(requests[index]!, { inFlight: options.inFlight });
        const { outcome, previous, mute } = after(plan.action, target, data, options.sets);
        outcomes[index] = { ...named(target), outcome, reason: null, previous, mute };
        unanswered = 0;
      } catch (error) {
        if (error instanceof InterruptedError) return;
        if (!(error instanceof MonError)) throw error;
        outcomes[index] = {
          ...named(target),
          outcome: 'failed',
          reason: error.message,
          previous: target.previous,
          mute: null,
          exitCode: error.exitCode,
        };
        // Exit 8: unreachable, timed out, cut off by the deadline; an answer (a 500) resets the count.
        unanswered = error.exitCode === EXIT.network ? unanswered + 1 : 0;
        if (unanswered >= UNANSWERED_IN_A_ROW) unreachable.abort();
      }
      options.onEnded?.();
    },
  );
  return outcomes.filter((outcome) => outcome !== undefined);
}

/** PUTs in a row that reached no answer after which a bulk mute sends no more: two rounds of those in flight. */
export const UNANSWERED_IN_A_ROW = 2 * WRITE_CONCURRENCY;

const named = ({ uid, computer, group, plugin }: NamedResult): NamedResult => ({ uid, computer, group, plugin });

/**
 * The run's end: the summary line for people, or the error that ends it (interrupted: how many
 * were done; some failed: every failed uid, with the code most failures share).
 */
export function tallyMutes(
  plan: MutePlan,
  outcomes: readonly SentOutcome[],
  signal: AbortSignal,
): { notice?: string; failure?: MonError } {
  const { action } = plan;
  const done = pastTense(action);
  const total = plan.targets.length;
  const succeeded = outcomes.filter((outcome) => outcome.outcome !== 'failed').length;
  const failed = outcomes.length - succeeded;
  if (signal.aborted) {
    return {
      failure: InterruptedError.of(
        signal,
        `${succeeded} of ${total} ${done}${failed > 0 ? ` (${failed} failed)` : ''}; run the same command again to finish`,
      ),
    };
  }
  // Not interrupted, yet some never sent: the service stopped answering (sendMutes).
  const unsent = total - outcomes.length;
  return {
    notice:
      failed === 0
        ? `${done} ${total.toLocaleString('en')} plugin result${total === 1 ? '' : 's'}`
        : `${done} ${succeeded} of ${total} plugin results; ${failed} failed${unsent > 0 ? `, ${unsent} not sent` : ''}`,
    failure: failureOf(action, outcomes, total),
  };
}

/**
 * The error that ends a run in which some writes failed (the others are done): it lists every
 * failed uid and exits with the code of the failures' own errors (mostCommonExitCode).
 */
export function failureOf(
  action: MuteAction,
  outcomes: readonly SentOutcome[],
  total = outcomes.length,
): PartialFailureError | undefined {
  const failed = outcomes.filter((o) => o.outcome === 'failed');
  if (failed.length === 0) return undefined;
  const code = mostCommonExitCode(failed.map(({ exitCode = 1 }) => exitCode));
  const reason = failed.find((o) => (o.exitCode ?? 1) === code)?.reason;
  const unsent = total - outcomes.length;
  const done = total - unsent - failed.length;
  return new PartialFailureError(
    `${failed.length} of ${total} plugin results not ${pastTense(action)} (${reason}): ${failed.map((o) => o.uid).join(', ')}` +
      (unsent > 0 ? `; ${unsent} more not sent, as the last ${UNANSWERED_IN_A_ROW} PUTs reached no answer` : ''),
    `${done === 0 ? 'none is' : `the other ${done} ${done === 1 ? 'is' : 'are'}`} ${pastTense(action)}; run the same command again${unsent > 0 ? ' once the service answers' : ''} to do what is left`,
    code,
  );
}
