import { UsageError } from '../errors.js';
import { objectCommand, listCommand, type View } from './actions.js';
import { GROUP_FIELDS } from './fields.js';
import type { ResourceSpec } from '../spec/spec.js';

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
};

/** Groups (api-v2.5, Endpoints > Groups). */
export const groups: ResourceSpec = {
  name: 'groups',
  aliases: ['group'],
  summary: 'List, show, find or create, and update groups of computers',
  verbs: [
    {
      name: 'list',
      aliases: ['ls'],
      route: 'groups.list',
      summary: 'List groups, sorted by name',
      list: true,
      fields: GROUP_FIELDS,
      options: [{ flags: '--visibility <visibility>', description: 'only visible or only hidden groups', choices: ['visible', 'hidden'] }],
      examples: ['mon groups list', 'mon groups list --visibility hidden -o csv'],
      run: ({ opts }, ctx) => listCommand(ctx, 'groups.list', { query: { visibility: opts.visibility as string | undefined } }, GROUP_VIEW, opts),
    },
    {
      name: 'get',
      aliases: ['show'],
      route: 'groups.get',
      summary: 'Show one group by uid, slug or name',
      args: [{ name: 'group', description: 'the group: its uid (g_…), its dashboard slug or its exact name', rule: { type: 'text', max: 255, nonEmpty: true }, resolve: 'group' }],
      fields: GROUP_FIELDS,
      examples: ['mon groups get g_3f9a2c', 'mon groups get acme-design --json', 'mon groups get "Acme Design"'],
      run: ({ args }, ctx) => objectCommand(ctx, 'groups.get', { path: { uid: args.group! } }, GROUP_VIEW).then(() => undefined),
    },
    {
      name: 'find-or-create',
      route: 'groups.findOrCreate',
      summary: 'Return the group with this name, creating it when there is none',
      description: 'Safe to repeat: an existing group with the same name is returned unchanged.',
      fields: GROUP_FIELDS,
      options: [
        { flags: '--name <name>', description: 'group name (required)', rule: { type: 'text', max: 255, nonEmpty: true } },
        { flags: '--description <text>', description: 'description, included in warnings', rule: { type: 'text', max: 65535 } },
        { flags: '--show-contact-menu', description: 'show the contact menu (default: set per company)', negatable: true },
        { flags: '--build-installers', description: 'build the group-specific macOS and Windows installers' },
      ],
      constraints: { exactlyOne: [['name']] },
      examples: ['mon groups find-or-create --name "Acme Design" --build-installers'],
      run: ({ opts }, ctx) =>
        objectCommand(
          ctx,
          'groups.findOrCreate',
          {
            body: {
              group: {
                name: opts.name as string,
                description: opts.description as string | undefined,
                show_contact_menu: opts.showContactMenu as boolean | undefined,
                build_installers: opts.buildInstallers === true ? true : undefined,
              },
            },
          },
          GROUP_VIEW,
          (group) => `Group ${String(group.name)} (${String(group.uid)}) is ready.`,
        ).then(() => undefined),
    },
    {
      name: 'update',
      route: 'groups.update',
      summary: "Change a group's name, description, reference e-mail or contact menu",
      description: 'The API needs the name on every update: without --name the current name is read and sent again.',
      args: [{ name: 'group', description: 'the group: its uid (g_…), its slug or its exact name', rule: { type: 'text', max: 255, nonEmpty: true }, resolve: 'group' }],
      fields: GROUP_FIELDS,
      options: [
        { flags: '--name <name>', description: 'new name', rule: { type: 'text', max: 255, nonEmpty: true } },
        { flags: '--description <text>', description: 'new description', rule: { type: 'text', max: 65535 } },
        { flags: '--reference-email <email>', description: 'reference e-mail address', rule: { type: 'email', max: 191 } },
        { flags: '--show-contact-menu', description: 'show the contact menu', negatable: true },
      ],
      examples: ['mon groups update g_3f9a2c --description "Design studio, 2nd floor"', 'mon groups update g_3f9a2c --name "Acme Studio"'],
      async run({ args, opts }, ctx) {
        const uid = args.group!;
        const changes = { description: opts.description, reference_email: opts.referenceEmail, show_contact_menu: opts.showContactMenu };
        if (opts.name === undefined && Object.values(changes).every((value) => value === undefined)) {
          throw new UsageError('nothing to update: give --name, --description, --reference-email or --[no-]show-contact-menu');
        }
        let name = opts.name as string | undefined;
        if (name === undefined) {
          if (ctx.globals.dryRun) name = '<current name, read when sent>';
          else {
            const { data } = await (await ctx.client()).call('groups.get', { path: { uid } });
            name = String((data as { name?: unknown }).name ?? '');
          }
        }
        await objectCommand(
          ctx,
          'groups.update',
          { path: { uid }, body: { group: { name, ...(changes as Record<string, string | boolean | undefined>) } } },
          GROUP_VIEW,
          () => `Group ${uid} updated.`,
        );
      },
    },
  ],
};
