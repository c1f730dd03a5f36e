import { NotFoundError } from '../errors.js';
import { changesWanted } from '../changes/request.js';
import { verb, WHOLE_LIST_OPTIONS, type ResourceSpec } from '../spec/spec.js';
import { renderOptions, type View } from './view.js';
import { quoted } from '../text/escape.js';
import { ChangeStates, listStates } from '../changes/state.js';

const CHANGES_VIEW: View = {
  columns: [
    { key: 'profile' },
    { key: 'name' },
    { key: 'command', maxWidth: 48 },
    { key: 'saved_at', header: 'SAVED', kind: 'time' },
    { key: 'items' },
  ],
  fields: ['profile', 'name', 'command', 'saved_at', 'items', 'file'],
};

/** How long `forget` waits for a run that holds the NAME (it would save the state again). */
const FORGET_WAIT_MS = 10_000;

/** The states `--changes NAME` saves (src/changes): list them, forget one. */
export const changes: ResourceSpec = {
  name: 'changes',
  summary: 'The saved states of --changes NAME: list, forget',
  verbs: [
    verb({
      name: 'list',
      aliases: ['ls'],
      summary: 'List the names saved by --changes, for every profile: command line, when, how many items',
      description:
        'A state that cannot be read is listed without a count (items -1); `mon changes forget NAME` removes it.',
      options: WHOLE_LIST_OPTIONS,
      examples: ['mon changes list', 'mon changes list --json'],
      async run({ opts }, ctx) {
        const rows = listStates(ctx.configDir).map((state) => ({
          profile: state.account,
          name: state.name,
          command: state.command === '' ? null : `mon ${state.command}`,
          saved_at: Number.isNaN(state.savedAt) ? null : new Date(state.savedAt).toISOString(),
          items: state.count,
          file: state.file,
        }));
        const render = renderOptions(ctx, CHANGES_VIEW);
        if (opts.count) return ctx.output.count(rows.length, render);
        const renderer = await ctx.output.list(render);
        renderer.push(rows);
        renderer.end();
        if (rows.length === 0) ctx.notice('No saved changes yet: add --changes NAME to a list or to `mon alerts`.');
        if (rows.some((row) => row.items < 0))
          ctx.notice(
            'A state with items -1 cannot be read: forget it with `mon changes forget NAME` (with -p for its profile).',
          );
      },
    }),
    verb({
      name: 'forget',
      aliases: ['rm'],
      jsonOutput: false,
      summary: 'Forget the state saved under NAME for the profile in effect: its next run records a new baseline',
      args: [
        { name: 'name', description: 'the NAME given to --changes', rule: { type: 'text', max: 64, nonEmpty: true } },
      ],
      examples: ['mon changes forget missing', 'mon -p acme changes forget morning'],
      async run({ args }, ctx) {
        const { name } = changesWanted({ changes: args.name! })!;
        const states = new ChangeStates(ctx.configDir, (await ctx.target()).account);
        if (ctx.dryRun.changesNothing(`forget the state saved under ${quoted(name)}`)) return;
        const lock = await states.lock(name, ctx.signal, FORGET_WAIT_MS);
        try {
          if (!states.forget(name)) {
            throw new NotFoundError(
              `no state saved under ${quoted(name)} for ${states.account.key.startsWith('@') ? states.account.label : `profile ${states.account.label}`}`,
              'see `mon changes list`',
            );
          }
        } finally {
          lock.release();
        }
        ctx.notice(`Forgot ${quoted(name)}: its next run records a new baseline.`);
      },
    }),
  ],
};
