/**
 * Stored records of the sandbox. They hold facts only; derived fields (missing, aliases,
 * installer readiness, counts, mute description) are computed at read time in render.ts.
 */

/** Which subscriber owns a record. */
export type AccountId = string;

export const PRIMARY_ACCOUNT: AccountId = 'demo';
export const OTHER_ACCOUNT: AccountId = 'other';

export interface GroupRec {
  uid: string;
  account: AccountId;
  slug: string;
  name: string;
  description: string | null;
  reference_email: string | null;
  hidden: boolean;
  show_contact_menu: boolean;
  /** ms clock value when installers were requested (build_installers); null when never */
  installers_requested_at_ms: number | null;
  created_at: number;
}

export type Platform = 'mac' | 'linux' | 'windows';

export interface ComputerRec {
  uid: string;
  account: AccountId;
  client_id: string;
  description: string | null;
  agent_version: string;
  last_report: number;
  last_update: number;
  registration_date: number;
  created_at: number;
  group: string;
  computer_name: string;
  custom_name: string | null;
  /** the computer's own reference e-mail (reference_email_computer) */
  reference_email: string | null;
  last_user: string | null;
  serial_number: string | null;
  os_version: string;
  os_version_number: string;
  os_version_number_max: string | null;
  model_identifier: string;
  model_name: string;
  product_description: string | null;
  estimated_manufacture_date: number | null;
  care_eligibility: boolean | null;
  warranty_status: string | null;
  estimated_purchase_date: number | null;
  config_description: string | null;
  ram_installed: string | null;
  ram_installed_in_bytes: string | null;
  ram_speed: string | null;
  ram_upgradeable: boolean | null;
  ram_max_maker: string | null;
  ram_max_actual: string | null;
  boot_volume_capacity_in_bytes: number | null;
  boot_volume_usage_in_bytes: number | null;
  processor: string | null;
  current_uptime: string | null;
  smc_version: string | null;
  primary_ip: string | null;
  active_mac_address: string | null;
  system_mac_address: string | null;
  asset_id: string | null;
  ard_field_1: string | null;
  ard_field_2: string | null;
  ard_field_3: string | null;
  ard_field_4: string | null;
  remote_a_id: string | null;
  remote_a_release: string | null;
  remote_a_unattended: boolean | null;
  remote_b_url: string | null;
  remote_c_url: string | null;
  remote_d_url: string | null;
  mdm_computer_id: string | null;
  mdm_url: string | null;
  pkgmgr_identifier: string | null;
  internal_notes: string | null;
  public_notes: string | null;
  updates_enabled: boolean;
  settings_enabled: boolean;
  report_if_missing: boolean;
  report_missing_after: number;
  ignore_missing_until: number | null;
  rekey_requested: boolean;
  pending_removal: boolean;
  agent_removed: boolean;
  has_issue: boolean;
  hidden: boolean;
  platform: Platform;
  beacon_reporting: boolean;
  beacon_missing_threshold_in_minutes: number;
  create_ticket_on_beacon_found: boolean;
}

export type PluginStatus = 'OK' | 'Warning' | 'Alert' | 'Informational';

/** A mute as requested: 'ignored' reads back as muted_forever (see README). */
export type MuteRec =
  | { type: 'ignored' }
  | { type: 'timed'; until: number; ticket_url: string | null }
  | { type: 'ticket'; ticket_number: string; ticket_url: string | null };

export interface PluginResultRec {
  uid: string;
  account: AccountId;
  computer: string;
  name: string;
  slug: string;
  status: PluginStatus;
  details: string;
  last_run: number;
  visible: boolean;
  mute: MuteRec | null;
}

export interface ExpirationRec {
  uid: string;
  account: AccountId;
  license_key: string;
  expires_at: number | null;
  expiration_manufacturer: string;
  expiration_product: string;
  group: string | null;
  computer: string | null;
  renewable: boolean;
  notes: string | null;
  created_at: number;
  updated_at: number;
}

/** Expiration manufacturers and expiration products share this shape. */
export interface CatalogRec {
  uid: string;
  account: AccountId;
  slug: string;
  name: string;
  created_at: number;
}

export interface NoteRec {
  uid: string;
  account: AccountId;
  computer: string | null;
  group: string | null;
  body: string;
  created_at: number;
  private: boolean;
  include_in_email: boolean;
  include_in_report: boolean;
}

export interface UserRec {
  uid: string;
  account: AccountId;
  email: string;
  firstname: string;
  lastname: string;
  tfa_status: boolean;
  role: 'employee' | 'end_user';
  can_edit_contact_menu: boolean;
  can_access_billing: boolean;
  last_subdomain: string | null;
  last_signin: number | null;
  created_at: number;
  restricted_group_uids?: string[];
  permitted_group_uids?: string[];
}

export const STATE_FORMAT = 'mon-sandbox-state';
export const STATE_VERSION = 1;

/** The whole persisted state; this is what the state file holds. */
export interface StateData {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  seed: number;
  computerCount: number;
  seededAtMs: number;
  /**
   * Clock (ms) that the report times (last_report, last_update, last_run) are relative to;
   * absent in older files, where it is seededAtMs. A sandbox moves them to its own start.
   */
  anchorMs?: number;
  /** PRNG state for uids of records created at run time, so they are reproducible too */
  rng: number;
  groups: GroupRec[];
  computers: ComputerRec[];
  pluginResults: PluginResultRec[];
  expirations: ExpirationRec[];
  expirationManufacturers: CatalogRec[];
  expirationProducts: CatalogRec[];
  notes: NoteRec[];
  users: UserRec[];
}

/** Fake dashboard host: `.invalid` is reserved, so no link can reach a real service. */
export const DASHBOARD_URL = 'https://sandbox.monitoring.invalid';
