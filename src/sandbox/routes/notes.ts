/** Notes (api-v2.5, Endpoints > Notes). */
import { Attributes } from '../attributes.js';
import { invalidParameter, missingParameter, one, unpermittedParameter, unprocessable } from '../http.js';
import type { ComputerRec, GroupRec, NoteRec } from '../model.js';
import { renderNote } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { byThenUid, deleteOwned, listReply, ownedOr404, queryFlag } from './common.js';

const BODY_MAX = 16_777_215;
const ID_MAX = 191;
const ATTRIBUTES = ['computer_id', 'group_id', 'body', 'private', 'include_in_email', 'include_in_report'] as const;

/** Newest first: the reference names no order for notes. */
const newestFirst = byThenUid<NoteRec>((n) => n.created_at, -1);

function list(ctx: RequestContext): Reply {
  // computer_id and group_id are the v2.2 filter names; silently ignoring them would list every note
  for (const old of ['computer_id', 'group_id']) {
    if (one(ctx.params, old) !== undefined)
      throw unpermittedParameter(`${old} (v2.5 calls this filter ${old.replace('_id', '')})`);
  }
  const computer = one(ctx.params, 'computer')?.trim() || undefined;
  const group = one(ctx.params, 'group')?.trim() || undefined;
  if (computer !== undefined && group !== undefined)
    throw invalidParameter('computer', 'and group cannot be combined: send one of them');
  const includePrivate = queryFlag(ctx, 'include_private') ?? false;
  const notes = ctx.store.notes.items.filter(
    (n) =>
      n.account === ctx.account &&
      (includePrivate || !n.private) &&
      (computer === undefined || n.computer === computer) &&
      (group === undefined || n.group === group),
  );
  notes.sort(newestFirst);
  return listReply(ctx, notes, (n) => renderNote(ctx, n, ctx.expand));
}

function get(ctx: RequestContext): Reply {
  const note = ownedOr404(ctx, ctx.store.notes, ctx.path.uid ?? '', 'Note');
  return { body: renderNote(ctx, note, ctx.expand) };
}

interface Owner {
  computer?: ComputerRec;
  group?: GroupRec;
}

/** note[computer_id] or note[group_id]: both is 422 on computer_id; an id outside the account is 422. */
function readOwner(ctx: RequestContext, attrs: Attributes): Owner {
  const computerId = attrs.text('computer_id', ID_MAX);
  const groupId = attrs.text('group_id', ID_MAX);
  if (computerId && groupId)
    throw unprocessable(
      'computer_id',
      'cannot be given together with group_id: a note belongs to a computer or a group',
    );
  if (computerId) {
    const computer = ctx.store.computers.get(computerId);
    if (!computer || computer.account !== ctx.account)
      throw unprocessable('computer_id', `does not name an existing computer (${computerId})`);
    return { computer };
  }
  if (groupId) {
    const group = ctx.store.groups.get(groupId);
    if (!group || group.account !== ctx.account)
      throw unprocessable('group_id', `does not name an existing group (${groupId})`);
    return { group };
  }
  return {};
}

function create(ctx: RequestContext): Reply {
  const attrs = Attributes.read(ctx, 'note', ATTRIBUTES, ['body']);
  const hasOwner = ['computer_id', 'group_id'].some((k) => (attrs.raw(k) ?? '').trim() !== '');
  if (!hasOwner) throw missingParameter('note[computer_id] or note[group_id]');
  const body = attrs.nonBlank('body', BODY_MAX) as string;
  const owner = readOwner(ctx, attrs);
  const note: NoteRec = {
    uid: ctx.store.newUid('n_'),
    account: ctx.account,
    computer: owner.computer?.uid ?? null,
    group: owner.group?.uid ?? null,
    body,
    created_at: ctx.nowSec,
    private: attrs.bool('private') ?? false,
    include_in_email: attrs.bool('include_in_email') ?? false,
    include_in_report: attrs.bool('include_in_report') ?? false,
  };
  ctx.store.notes.insert(note);
  ctx.store.commit({ saved: [note] });
  return { body: renderNote(ctx, note, ctx.expand) };
}

/** Partial; a new owner replaces the old one (the other field becomes null). */
function update(ctx: RequestContext): Reply {
  const note = ownedOr404(ctx, ctx.store.notes, ctx.path.uid ?? '', 'Note');
  const attrs = Attributes.read(ctx, 'note', ATTRIBUTES);
  const body = attrs.nonBlank('body', BODY_MAX);
  const owner = readOwner(ctx, attrs);
  const priv = attrs.bool('private');
  const email = attrs.bool('include_in_email');
  const report = attrs.bool('include_in_report');
  if (body !== undefined) note.body = body;
  if (owner.computer) {
    note.computer = owner.computer.uid;
    note.group = null;
  } else if (owner.group) {
    note.group = owner.group.uid;
    note.computer = null;
  }
  if (priv !== undefined) note.private = priv;
  if (email !== undefined) note.include_in_email = email;
  if (report !== undefined) note.include_in_report = report;
  ctx.store.commit({ saved: [note] });
  return { body: renderNote(ctx, note, ctx.expand) };
}

function remove(ctx: RequestContext): Reply {
  return deleteOwned(ctx, ctx.store.notes, 'Note');
}

export function noteRoutes(router: Router): void {
  router
    .add('GET', '/v2.5/notes', list)
    .add('POST', '/v2.5/notes', create)
    .add('GET', '/v2.5/notes/:uid', get)
    .add('PUT', '/v2.5/notes/:uid', update)
    .add('DELETE', '/v2.5/notes/:uid', remove);
}
