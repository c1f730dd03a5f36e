import * as z from 'zod/mini';
import { Count, Decimal, Flag, lazily, resource, Text, Time, UidList } from './common.js';

// Each schema is built on first use: a command checks one resource, and building them all
// would cost every command's start-up.

/** Plugin result (api-v2.5): mute_until is also sampled as muted_until. */
export const PluginResult = lazily(() =>
  resource({
    name: Text,
    slug: Text,
    status: Text,
    details: Text,
    last_run: Time,
    muted: Flag,
    mute_type: Text,
    mute_description: Text,
    mute_until: Time,
    muted_until: Time,
    ticket_number: z.nullish(z.union([z.string(), z.number()])),
    ticket_url: Text,
    visible: Flag,
  }),
);

export const Group = lazily(() =>
  resource({
    slug: Text,
    name: Text,
    description: Text,
    hidden: Flag,
    visible_computer_count: Count,
    hidden_computer_count: Count,
    created_at: Time,
  }),
);

/**
 * Computer: last_report, last_update and registration_date as epoch or ISO string; the decimal
 * boot_volume_usage_percent as a number or a JSON string; ard_field1 beside ard_field_1 (both
 * kept as received; src/output/forms.ts reads either); plugin_results only with expand; group
 * a uid, or an object when expanded.
 */
export const Computer = lazily(() =>
  resource({
    client_id: Text,
    computer_name: Text,
    custom_name: Text,
    group: z.nullish(z.union([z.string(), z.object({})])),
    platform: Text,
    os_version: Text,
    last_report: Time,
    last_update: Time,
    registration_date: Time,
    created_at: Time,
    boot_volume_usage_percent: Decimal,
    missing: Flag,
    hidden: Flag,
    has_issue: Flag,
    pending_removal: Flag,
    plugin_results: z.nullish(z.array(PluginResult())),
  }),
);

const Ref = z.nullish(z.union([z.string(), z.object({})]));

export const Expiration = lazily(() =>
  resource({
    license_key: Text,
    expires_at: Time,
    expiration_manufacturer: Ref,
    expiration_product: Ref,
    group: Ref,
    computer: Ref,
    renewable: Flag,
    notes: Text,
    created_at: Time,
  }),
);

/** Expiration manufacturer and expiration product share one shape. */
export const Catalogue = lazily(() => resource({ slug: Text, name: Text, created_at: Time }));

export const Note = lazily(() =>
  resource({
    computer: Ref,
    group: Ref,
    body: Text,
    created_at: Time,
    private: Flag,
    include_in_email: Flag,
    include_in_report: Flag,
    // the field table's spelling of include_in_report
    included_in_report: Flag,
  }),
);

export const User = lazily(() =>
  resource({
    email: Text,
    firstname: Text,
    lastname: Text,
    role: Text,
    tfa_status: Flag,
    last_signin: Time,
    created_at: Time,
    restricted_group_uids: UidList,
    permitted_group_uids: UidList,
  }),
);
