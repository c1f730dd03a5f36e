import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { verb, type OptionSpec, type OptionValues, type ResourceSpec } from '../spec/spec.js';
import { shortened } from '../text/escape.js';
import { characters } from '../validate/text.js';
import { deleteCommand, listCommand, objectCommand } from './actions.js';
import type { View } from './view.js';
import { owner } from './computers.js';
import { NOTE_FIELDS } from './fields.js';
import { inputName, readUserInput } from '../io/user-input.js';

// note[body] text max 16777215 (api-v2.5, Notes and Limits); over it the API answers 500.
const BODY_MAX = 16_777_215;

/** The first non-blank line of a body, for the table (the whole body is in --fields body and JSON). */
function firstLine(row: Record<string, unknown>): string {
  const body = typeof row.body === 'string' ? row.body : '';
  return (
    body
      .split(/\r?\n|\r/)
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

export const NOTE_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'owner', get: owner },
    { key: 'private', kind: 'bool' },
    { key: 'created_at', header: 'CREATED', kind: 'time' },
    { key: 'excerpt', header: 'BODY', get: firstLine, maxWidth: 60 },
  ],
  fields: NOTE_FIELDS,
  tableExpand: ['computer', 'group'],
  changes: {
    noun: 'notes',
    compare: ['body', 'private', 'include_in_email', 'include_in_report', 'computer', 'group'],
  },
};

const UID_ARG = { name: 'uid', description: 'the note uid (n_…)', rule: { type: 'uid', prefix: 'n_' } } as const;

const BODY_OPTIONS = [
  {
    flags: '--body <text>',
    param: 'body',
    description: 'the note text',
    rule: { type: 'text', max: BODY_MAX, nonEmpty: true },
  },
  {
    flags: '--body-file <path>',
    description: `read the note text from a file, or from stdin with - (max ${BODY_MAX} characters)`,
  },
] as const satisfies readonly OptionSpec[];

/**
 * The note body from --body, or from --body-file (a path, or - for stdin), with the limits the
 * rules apply to --body checked on the file's content too. The content is sent as it is, final
 * newline included, as `gh issue create --body-file` does.
 */
async function readBody(ctx: Context, opts: OptionValues<typeof BODY_OPTIONS>): Promise<string | undefined> {
  if (opts.bodyFile === undefined) return opts.body;
  const path = opts.bodyFile;
  // A character is at most 4 bytes of UTF-8: more than 64 MiB is more than BODY_MAX characters.
  const body = await readUserInput(ctx, {
    option: '--body-file',
    path,
    maxBytes: 64 << 20,
    tooLarge: `so more than the ${BODY_MAX} characters a note body may be`,
    hint: 'give a file of the note text, or - for standard input',
  });
  const where = inputName(path);
  const length = characters(body);
  if (length > BODY_MAX)
    throw new UsageError(`--body-file: ${where} holds ${length} characters; a note body has at most ${BODY_MAX}`);
  if (body.trim() === '') throw new UsageError(`--body-file: ${where} is empty; a note body must not be empty`);
  return body;
}

/** --computer and --group: who a note belongs to, by client id or c_ uid, by group uid, slug or name. */
function ownerOptions(tail: string) {
  return [
    {
      flags: '--computer <computer>',
      param: 'computer_id',
      description: `the computer it belongs to (client id or c_ uid)${tail}`,
      rule: { type: 'text', max: 191, nonEmpty: true },
      resolve: 'computer',
    },
    {
      flags: '--group <group>',
      param: 'group_id',
      description: `the group it belongs to (uid, slug or name)${tail}`,
      rule: { type: 'text', max: 255, nonEmpty: true },
      resolve: 'group',
    },
  ] as const satisfies readonly OptionSpec[];
}

/** Notes on a computer or a group (api-v2.5, Endpoints > Notes). */
export const notes: ResourceSpec = {
  name: 'notes',
  aliases: ['note'],
  summary: 'List, show, create, update and delete notes',
  verbs: [
    verb({
      name: 'list',
      route: 'notes.list',
      aliases: ['ls'],
      summary: 'List notes of the account, of one computer or of one group',
      description:
        'Without --computer or --group, every note of the account is listed. Private notes are left out unless --include-private is given.',
      list: true,
      fields: NOTE_FIELDS,
      options: [
        {
          flags: '--computer <computer>',
          param: 'computer',
          description: 'only notes of this computer (client id or c_ uid)',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'computer',
        },
        {
          flags: '--group <group>',
          param: 'group',
          description: 'only notes of this group (uid, slug or name)',
          rule: { type: 'text', max: 255, nonEmpty: true },
          resolve: 'group',
        },
        {
          flags: '--include-private',
          param: 'include_private',
          description: 'include private notes (default: left out)',
        },
      ],
      // "send computer or group, never both" (api-v2.5, Notes)
      constraints: { atMostOne: [['computer', 'group']] },
      examples: ['mon notes list --computer c_81d0', 'mon notes list --group g_3f9a2c --include-private --json'],
      run: ({ opts, params }, ctx) => listCommand(ctx, 'notes.list', { query: params }, NOTE_VIEW, opts),
    }),
    {
      name: 'get',
      route: 'notes.get',
      aliases: ['show'],
      summary: 'Show one note',
      args: [UID_ARG],
      fields: NOTE_FIELDS,
      examples: ['mon notes get n_9e2a41', 'mon notes get n_9e2a41 --fields body -o tsv --no-header'],
      run: ({ args }, ctx) =>
        objectCommand(ctx, 'notes.get', { path: { uid: args.uid! } }, NOTE_VIEW).then(() => undefined),
    },
    verb({
      name: 'create',
      route: 'notes.create',
      summary: 'Add a note to a computer or a group',
      fields: NOTE_FIELDS,
      options: [
        ...ownerOptions('; give --computer or --group'),
        ...BODY_OPTIONS,
        { flags: '--private', param: 'private', description: 'visible only internally (default: not private)' },
        {
          flags: '--include-in-email',
          param: 'include_in_email',
          description: 'include it in e-mails (default: not included)',
        },
        {
          flags: '--include-in-report',
          param: 'include_in_report',
          description: 'include it in computer and group status reports (default: not included)',
        },
      ],
      constraints: {
        exactlyOne: [
          ['computer', 'group'],
          ['body', 'bodyFile'],
        ],
      },
      examples: [
        'mon notes create --computer 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --body "Battery replaced 2025-05-12"',
        'mon notes create --group "Acme Design" --body-file handover.md --private',
        'git log -1 --format=%B | mon notes create --computer c_81d0 --body-file -',
      ],
      async run({ opts, params }, ctx) {
        // The flags default to false on the API side and are sent only when given (switched on).
        const note = { ...params, body: await readBody(ctx, opts) };
        await objectCommand(
          ctx,
          'notes.create',
          { body: { note } },
          NOTE_VIEW,
          (n) => `Note ${String(n.uid)} created.`,
        );
      },
    }),
    verb({
      name: 'update',
      route: 'notes.update',
      partial: true,
      summary: "Change a note's text, owner, or its private, e-mail and report flags",
      description: 'Only the options given change. --computer or --group moves the note to that computer or group.',
      args: [UID_ARG],
      fields: NOTE_FIELDS,
      options: [
        ...BODY_OPTIONS,
        ...ownerOptions('; moves the note there'),
        { flags: '--private', param: 'private', description: 'make it visible only internally', negatable: true },
        {
          flags: '--include-in-email',
          param: 'include_in_email',
          description: 'include it in e-mails',
          negatable: true,
        },
        {
          flags: '--include-in-report',
          param: 'include_in_report',
          description: 'include it in computer and group status reports',
          negatable: true,
        },
      ],
      // "Sending both computer_id and group_id on create or update gives an error" (api-v2.5, Notes)
      constraints: {
        atMostOne: [
          ['body', 'bodyFile'],
          ['computer', 'group'],
        ],
      },
      examples: [
        'mon notes update n_9e2a41 --body "Battery replaced again 2025-11-02"',
        'mon notes update n_9e2a41 --no-private --include-in-report',
        'mon notes update n_9e2a41 --group acme-design',
      ],
      async run({ args, opts, params }, ctx) {
        const uid = args.uid!;
        const note = { ...params, body: await readBody(ctx, opts) };
        await objectCommand(
          ctx,
          'notes.update',
          { path: { uid }, body: { note } },
          NOTE_VIEW,
          () => `Note ${uid} updated.`,
        );
      },
    }),
    {
      name: 'delete',
      jsonOutput: false,
      route: 'notes.delete',
      aliases: ['rm'],
      summary: 'Delete a note for good',
      description: 'Asks for confirmation on a terminal; from a script, add --yes.',
      args: [UID_ARG],
      examples: ['mon notes delete n_9e2a41', 'mon notes delete n_9e2a41 --yes'],
      run: ({ args }, ctx) => {
        const uid = args.uid!;
        return deleteCommand(ctx, 'notes.delete', { path: { uid } }, async () => {
          const { data } = await (await ctx.client()).call('notes.get', { path: { uid } });
          const note = data as Record<string, unknown>;
          const line = firstLine(note);
          const excerpt = line.length > 60 ? `${line.slice(0, 59)}…` : line;
          return `note ${uid} on ${note.computer ? 'computer' : 'group'} ${shortened(String(owner(note)))} ("${excerpt}")`;
        });
      },
    },
  ],
};
