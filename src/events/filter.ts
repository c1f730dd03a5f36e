import type { Understood } from './payload.js';

/** What --severity, --group, --computer and --plugin ask for (each a list: any of them), and --include-tests. */
export interface EventFilter {
  severity?: readonly string[];
  group?: readonly string[];
  computer?: readonly string[];
  plugin?: readonly string[];
  includeTests?: boolean;
}

const fold = (value: string): string => value.trim().toLowerCase();

/** Repeated or comma-separated values, as every list option takes them: `--severity alert,warning`. */
export function listOf(values: readonly string[] | undefined): string[] | undefined {
  const out = values
    ?.flatMap((value) => value.split(','))
    .map(fold)
    .filter((value) => value !== '');
  return out && out.length > 0 ? out : undefined;
}

/**
 * Whether an event is shown and handed on. A test delivery (svc_test, connection_test) only
 * with --include-tests; any other event when it matches every filter given (a field it does
 * not carry matches no filter), compared without case; a computer by its name or client id, a
 * group by its name or uid.
 */
export function wanted(event: Understood, filter: EventFilter): boolean {
  if (event.kind === 'test' || event.kind === 'connection_test') return filter.includeTests === true;
  const matches = (wantedValues: readonly string[] | undefined, ...values: (string | undefined)[]) =>
    wantedValues === undefined || values.some((value) => value !== undefined && wantedValues.includes(fold(value)));
  return (
    matches(filter.severity, event.severity) &&
    matches(filter.group, event.group, event.group_uid) &&
    matches(filter.computer, event.computer, event.client_id) &&
    matches(filter.plugin, event.plugin)
  );
}
