import { listCommand } from './actions.js';
import type { View } from './view.js';
import { USER_FIELDS } from './fields.js';
import { verb, type ResourceSpec } from '../spec/spec.js';

export const USER_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'email', maxWidth: 40 },
    {
      key: 'name',
      get: (row) => [row.firstname, row.lastname].filter((part) => typeof part === 'string' && part !== '').join(' '),
      maxWidth: 32,
    },
    { key: 'role' },
    { key: 'tfa_status', header: '2FA', kind: 'bool' },
    { key: 'last_signin', header: 'LAST SIGN-IN', kind: 'time' },
  ],
  fields: USER_FIELDS,
  changes: { noun: 'users', compare: ['role', 'tfa_status', 'can_access_billing', 'can_edit_contact_menu'] },
};

/**
 * Users (api-v2.5, Endpoints > Users). Only a list is documented, accepting page; its path is
 * not shown: /v2.5/users follows the other resources (src/api/endpoints.ts).
 */
export const users: ResourceSpec = {
  name: 'users',
  aliases: ['user'],
  summary: 'List the people with access to the account',
  verbs: [
    verb({
      name: 'list',
      route: 'users.list',
      aliases: ['ls'],
      summary: 'List users of the account',
      list: true,
      fields: USER_FIELDS,
      examples: ['mon users list', 'mon users list --all -o csv --fields email,role,tfa_status'],
      run: ({ opts }, ctx) => listCommand(ctx, 'users.list', {}, USER_VIEW, opts),
    }),
  ],
};
