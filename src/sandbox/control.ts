/**
 * The sandbox's own routes under /_sandbox/ (README, Control routes), not the API's: `tick`
 * moves a living fleet's clock, `trigger` sends a test event or forces a change of state.
 * `mon sandbox trigger` sends here.
 */
import { ApiError, invalidParameter, one, type Params } from './http.js';
import type { LiveFleet, Transition } from './live.js';
import { type ComputerRec, PRIMARY_ACCOUNT, type PluginStatus } from './model.js';
import type { Store } from './store.js';
import { connectionTestEvent, type Delivery, testEvent } from './webhooks.js';

/** Paths of the sandbox's own control routes (not the API's): `mon sandbox trigger` sends here. */
export const CONTROL_PREFIX = '/_sandbox/';

/** What the control routes act on: the running sandbox's data, clock, fleet and webhooks. */
export interface Controlled {
  /** the store of this moment (a sandbox reads a fresh one when another wrote its state file) */
  store(): Store;
  now(): number;
  /** forced transitions use the fleet's rules in a still sandbox too */
  fleet: LiveFleet;
  tick(seconds: number): Transition[];
  deliver(event: Record<string, unknown>): Promise<Delivery[]>;
  probe(event: Record<string, unknown>): Promise<Delivery[]>;
}

const FORCED: Readonly<Record<string, PluginStatus>> = { alert: 'Alert', warning: 'Warning', ok: 'OK' };

/** A transition as the control routes answer it. */
function describe(t: Transition): Record<string, unknown> {
  return {
    plugin_result_uid: t.result.uid,
    client_id: t.computer.client_id,
    name: t.result.name,
    previous: t.previous,
    status: t.status,
    at: t.atSec,
    cause: t.cause,
  };
}

/** The answer of a control route: `route` is the path past CONTROL_PREFIX, `params` the query and form. */
export async function answerControl(
  sandbox: Controlled,
  method: string,
  route: string,
  params: Params,
): Promise<unknown> {
  if (method !== 'POST')
    throw new ApiError(
      405,
      ':method_not_allowed',
      `${method} is not allowed on ${CONTROL_PREFIX}${route}; allowed: POST`,
      undefined,
      { allow: 'POST' },
    );
  if (route === 'tick') {
    const raw = one(params, 'seconds') ?? '';
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 366 * 86_400)
      throw invalidParameter('seconds', 'must be an integer from 1 to 31622400 (a year)');
    const made = sandbox.tick(Number(raw));
    return { now: Math.floor(sandbox.now() / 1000), transitions: made.map(describe) };
  }
  if (route !== 'trigger')
    throw new ApiError(
      404,
      ':not_found',
      `no control route ${CONTROL_PREFIX}${route}; there are ${CONTROL_PREFIX}tick and ${CONTROL_PREFIX}trigger`,
    );
  return trigger(sandbox, one(params, 'kind') ?? '', one(params, 'target') ?? '');
}

/** `trigger`: a test event, a connection test, a computer gone missing, or a plugin result forced to a state. */
async function trigger(sandbox: Controlled, kind: string, target: string): Promise<unknown> {
  const store = sandbox.store();
  const nowSec = Math.floor(sandbox.now() / 1000);
  if (kind === 'test') {
    const event = testEvent(nowSec);
    return { event_id: event.event_id, deliveries: await sandbox.deliver(event) };
  }
  if (kind === 'connection_test') return { deliveries: await sandbox.probe(connectionTestEvent(nowSec)) };
  const computer = target.startsWith('pr_')
    ? store.computers.get(store.pluginResults.get(target)?.computer ?? '')
    : target !== ''
      ? store.computerByClientId(target)
      : undefined;
  if (target !== '' && (computer === undefined || computer.account !== PRIMARY_ACCOUNT))
    throw new ApiError(404, ':not_found', `no computer or plugin result ${target} of the primary account`);
  if (kind === 'missing') return forceMissing(sandbox, computer, nowSec);
  const status = FORCED[kind];
  if (status === undefined)
    throw invalidParameter('kind', 'must be one of test, connection_test, missing, alert, warning, ok');
  const candidates = (
    computer ? [computer] : store.computers.items.filter((x) => x.account === PRIMARY_ACCOUNT && !x.hidden)
  ).flatMap((c) => store.resultsOf(c.uid).filter((r) => r.visible));
  const result = target.startsWith('pr_')
    ? store.pluginResults.get(target)
    : (candidates.find((r) => r.status !== status && r.mute === null) ?? candidates.find((r) => r.status !== status));
  if (!result) throw new ApiError(404, ':not_found', `no visible plugin result that is not ${status} already`);
  const owner = store.computers.get(result.computer);
  if (!owner) throw new ApiError(404, ':not_found', `plugin result ${result.uid} has no computer`);
  return describe(sandbox.fleet.force(store, owner, result, status, nowSec));
}

/** `trigger kind=missing`: the computer given, or the first reporting one, stops reporting. */
function forceMissing(sandbox: Controlled, computer: ComputerRec | undefined, nowSec: number): unknown {
  const store = sandbox.store();
  const c =
    computer ??
    store.computers.items.find(
      (x) =>
        x.account === PRIMARY_ACCOUNT && x.report_if_missing && !x.agent_removed && nowSec - x.last_report < 86_400,
    );
  if (!c) throw new ApiError(404, ':not_found', 'no reporting computer left to go missing');
  sandbox.fleet.forceMissing(store, c, nowSec);
  c.report_if_missing = true;
  c.ignore_missing_until = null;
  c.last_report = Math.min(c.last_report, nowSec - c.report_missing_after * 86_400 - 3_600);
  c.last_update = c.last_report;
  store.commit({ saved: [c] });
  return { client_id: c.client_id, missing: true, last_report: c.last_report };
}
