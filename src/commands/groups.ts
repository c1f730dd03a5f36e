import { verb, type ResourceSpec } from '../spec/spec.js';
import { objectCommand, listCommand } from './actions.js';
import type { View } from './view.js';
import { GROUP_FIELDS } from './fields.js';

export const GROUP_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'name', maxWidth: 40 },
    { key: 'slug' },
    { key: 'visible_computer_count', header: 'COMPUTERS' },
    { key: 'hidden_computer_count', header: 'HIDDEN' },
    { key: 'hidden', header: 'HIDDEN GROUP', kind: 'bool' },
    { key: 'created_at', header: 'CREATED', kind: 'time' },
  ],
  fields: GROUP_FIELDS,
  changes: { noun: 'groups', compare: ['name', 'hidden', 'visible_computer_count', 'hidden_computer_count'] },
};

/** Groups (api-v2.5, Endpoints > Groups). */
export const groups: ResourceSpec = {
  name: 'groups',
  aliases: ['group'],
  summary: 'List, show, find-or-create and update groups',
  verbs: [
    verb({
      name: 'list',
      aliases: ['ls'],
      route: 'groups.list',
      summary: 'List groups, sorted by name',
      list: true,
      fields: GROUP_FIELDS,
      options: [
        {
          flags: '--visibility <visibility>',
          param: 'visibility',
          description: 'only visible or only hidden groups',
          choices: ['visible', 'hidden'],
        },
      ],
      examples: ['mon groups list', 'mon groups list --visibility hidden -o csv'],
      run: ({ opts, params }, ctx) => listCommand(ctx, 'groups.list', { query: params }, GROUP_VIEW, opts),
    }),
    {
      name: 'get',
      aliases: ['show'],
      route: 'groups.get',
      summary: 'Show one group by uid, slug or name',
      args: [
        {
          name: 'group',
          description: 'the group: its uid (g_…), its dashboard slug or its exact name',
          rule: { type: 'text', max: 255, nonEmpty: true },
          resolve: 'group',
        },
      ],
      fields: GROUP_FIELDS,
      examples: ['mon groups get g_3f9a2c', 'mon groups get acme-design --json', 'mon groups get "Acme Design"'],
      run: ({ args }, ctx) =>
        objectCommand(ctx, 'groups.get', { path: { uid: args.group! } }, GROUP_VIEW).then(() => undefined),
    },
    verb({
      name: 'find-or-create',
      route: 'groups.findOrCreate',
      summary: 'Return the group with this name, creating it when there is none',
      description: 'Safe to repeat: an existing group with the same name is returned unchanged.',
      fields: GROUP_FIELDS,
      options: [
        {
          flags: '--name <name>',
          param: 'name',
          description: 'group name (required)',
          rule: { type: 'text', max: 255, nonEmpty: true },
        },
        {
          flags: '--description <text>',
          param: 'description',
          description: 'description, included in warnings',
          rule: { type: 'text', max: 65535 },
        },
        {
          flags: '--show-contact-menu',
          param: 'show_contact_menu',
          description: 'show the contact menu (default: set per company)',
          negatable: true,
        },
        {
          flags: '--build-installers',
          param: 'build_installers',
          description: 'build the group-specific macOS and Windows installers',
        },
      ],
      constraints: { exactlyOne: [['name']] },
      examples: ['mon groups find-or-create --name "Acme Design" --build-installers'],
      run: ({ params }, ctx) =>
        objectCommand(
          ctx,
          'groups.findOrCreate',
          { body: { group: params } },
          GROUP_VIEW,
          (group) => `Group ${String(group.name)} (${String(group.uid)}) is ready.`,
        ).then(() => undefined),
    }),
    verb({
      name: 'update',
      route: 'groups.update',
      summary: "Change a group's name, description, reference e-mail or contact menu",
      description: 'The API needs the name on every update: without --name the current name is read and sent again.',
      partial: true,
      args: [
        {
          name: 'group',
          description: 'the group: its uid (g_…), its slug or its exact name',
          rule: { type: 'text', max: 255, nonEmpty: true },
          resolve: 'group',
        },
      ],
      fields: GROUP_FIELDS,
      options: [
        {
          flags: '--name <name>',
          param: 'name',
          description: 'new name',
          rule: { type: 'text', max: 255, nonEmpty: true },
        },
        {
          flags: '--description <text>',
          param: 'description',
          description: 'new description',
          rule: { type: 'text', max: 65535 },
        },
        {
          flags: '--reference-email <email>',
          param: 'reference_email',
          description: 'reference e-mail address',
          rule: { type: 'email', max: 191 },
        },
        {
          flags: '--show-contact-menu',
          param: 'show_contact_menu',
          description: 'show the contact menu',
          negatable: true,
        },
      ],
      examples: [
        'mon groups update g_3f9a2c --description "Design studio, 2nd floor"',
        'mon groups update g_3f9a2c --name "Acme Studio"',
      ],
      async run({ args, opts, params }, ctx) {
        const uid = args.group!;
        let name = opts.name;
        if (name === undefined) {
          if (ctx.dryRun.on) name = '<current name, read when sent>';
          else {
            const { data } = await (await ctx.client()).call('groups.get', { path: { uid } });
            name = String((data as { name?: unknown }).name ?? '');
          }
        }
        await objectCommand(
          ctx,
          'groups.update',
          { path: { uid }, body: { group: { ...params, name } } },
          GROUP_VIEW,
          () => `Group ${uid} updated.`,
        );
      },
    }),
  ],
};
