/**
 * The documented keys of each resource (api-v2.5, "Resources and their fields"): what --fields
 * accepts. Keep in sync with the reference.
 */
export const GROUP_FIELDS = [
  'uid', 'slug', 'name', 'description', 'group_url', 'reference_email', 'contact_email', 'hidden', 'show_contact_menu',
  'visible_computer_count', 'hidden_computer_count', 'mac_installer_ready', 'mac_installer_url', 'windows_installer_ready',
  'windows_installer_url', 'created_at',
] as const;

export const COMPUTER_FIELDS = [
  'uid', 'client_id', 'svc_id', 'description', 'agent_version', 'build_number', 'last_report', 'created_at', 'group',
  'computer_name', 'custom_name', 'computer_url', 'reference_email', 'contact_email', 'reference_email_computer',
  'reference_email_group', 'last_user', 'serial_number', 'os_version', 'os_version_number', 'os_version_number_max',
  'model_identifier', 'model_name', 'maker_product_description', 'product_description', 'estimated_manufacture_date',
  'care_eligibility', 'warranty_status', 'estimated_purchase_date', 'config_description', 'ram_installed',
  'ram_installed_in_bytes', 'ram_speed', 'ram_upgradeable', 'ram_max_maker', 'ram_max_actual', 'boot_volume_capacity_in_bytes',
  'boot_volume_usage_in_bytes', 'boot_volume_capacity', 'boot_volume_usage', 'boot_volume_usage_percent', 'processor',
  'current_uptime', 'smc_version', 'primary_ip', 'active_mac_address', 'system_mac_address', 'asset_id', 'ard_field_1',
  'ard_field_2', 'ard_field_3', 'ard_field_4', 'remote_a_id', 'remote_a_release', 'remote_a_unattended', 'remote_b_url',
  'remote_c_url', 'remote_d_url', 'mdm_computer_id', 'mdm_url', 'pkgmgr_identifier', 'internal_notes', 'public_notes',
  'updates_enabled', 'settings_enabled', 'report_if_missing', 'report_missing_after', 'ignore_missing_until',
  'rekey_requested', 'pending_removal', 'agent_removed', 'has_issue', 'missing', 'hidden', 'platform', 'plugin_results',
  'beacon_reporting', 'beacon_missing_threshold_in_minutes', 'create_ticket_on_beacon_found', 'last_update', 'registration_date',
  // the samples' spelling of ard_field_1..4: either name reads either form (src/output/forms.ts)
  'ard_field1', 'ard_field2', 'ard_field3', 'ard_field4',
] as const;

export const EXPIRATION_FIELDS = [
  'uid', 'license_key', 'expires_at', 'expiration_manufacturer', 'expiration_product', 'group', 'computer', 'renewable',
  'notes', 'created_at', 'updated_at',
] as const;

export const CATALOGUE_FIELDS = ['uid', 'slug', 'name', 'created_at'] as const;

export const NOTE_FIELDS = ['uid', 'computer', 'group', 'body', 'created_at', 'private', 'include_in_email', 'include_in_report', 'included_in_report'] as const;

export const PLUGIN_RESULT_FIELDS = [
  'uid', 'name', 'slug', 'status', 'details', 'last_run', 'muted', 'mute_type', 'mute_description', 'ticket_number',
  'ticket_url', 'mute_until', 'muted_until', 'visible',
] as const;

export const USER_FIELDS = [
  'uid', 'email', 'firstname', 'lastname', 'tfa_status', 'role', 'can_edit_contact_menu', 'can_access_billing',
  'last_subdomain', 'last_signin', 'created_at', 'restricted_group_uids', 'permitted_group_uids',
] as const;
