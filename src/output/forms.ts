/**
 * Fields the API reference's tables and its sample payloads disagree on (api-v2.5; the
 * sandbox's README, Payload forms, lists each). mon reads either form and shows both the same
 * way: a name asked for under one spelling is read under the other when absent, and a key's
 * kind (time, percent) does not depend on whether it is a default column. Pure data and two
 * lookups: nothing here loads a module.
 */
import type { ValueKind } from './types.js';

/** Each spelling of a field and the other spellings the same fact may arrive under. */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = (() => {
  const groups = [
    ['ard_field_1', 'ard_field1'],
    ['ard_field_2', 'ard_field2'],
    ['ard_field_3', 'ard_field3'],
    ['ard_field_4', 'ard_field4'],
    ['mute_until', 'muted_until'],
    ['include_in_report', 'included_in_report'],
  ];
  const out: Record<string, readonly string[]> = {};
  for (const group of groups) for (const name of group) out[name] = group.filter((other) => other !== name);
  return out;
})();

/** The other spellings of `key` (empty for a field with one name). */
export function otherSpellings(key: string): readonly string[] {
  return SPELLINGS[key] ?? [];
}

/** `row[key]`, or the same fact under another spelling when `key` is absent or null. */
export function readField(row: Record<string, unknown>, key: string): unknown {
  const value = row[key];
  if (value !== undefined && value !== null) return value;
  for (const other of otherSpellings(key)) {
    const alt = row[other];
    if (alt !== undefined && alt !== null) return alt;
  }
  return value;
}

/** Whether `row` carries `key` under any of its spellings. */
export function hasField(row: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(row, key) || otherSpellings(key).some((other) => Object.hasOwn(row, other));
}

const TIME_FIELDS = [
  'created_at',
  'updated_at',
  'last_report',
  'last_update',
  'registration_date',
  'last_run',
  'last_signin',
  'expires_at',
  'mute_until',
  'muted_until',
  'estimated_manufacture_date',
  'estimated_purchase_date',
  'ignore_missing_until',
];

/**
 * How a field is shown when --fields names it: times (epoch seconds or ISO 8601, as the table
 * and a sample differ) as times, the decimal percent (a number or a JSON string) as a percent.
 */
export const FIELD_KINDS: Readonly<Record<string, ValueKind>> = {
  ...Object.fromEntries(TIME_FIELDS.map((key) => [key, 'time' as const])),
  boot_volume_usage_percent: 'percent',
};
