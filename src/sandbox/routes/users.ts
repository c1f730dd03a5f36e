/** Users: only the list is documented (api-v2.5, Endpoints > Users); its path is the resource name. */
import { renderUser } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { byThenUid, listReply } from './common.js';

const byEmail = byThenUid<{ uid: string; email: string }>((u) => u.email, 1);

function list(ctx: RequestContext): Reply {
  const users = ctx.store.users.ofAccount(ctx.account).sort(byEmail);
  return listReply(ctx, users, renderUser);
}

export function userRoutes(router: Router): void {
  router.add('GET', '/v2.5/users', list);
}
