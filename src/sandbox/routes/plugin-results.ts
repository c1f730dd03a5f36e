/** Plugin results: read through a computer, muted here (api-v2.5, Endpoints > Plugin results). */
import { Attributes } from '../attributes.js';
import { missingParameter, unprocessable } from '../http.js';
import type { MuteRec } from '../model.js';
import { renderPluginResult } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { ownedOr404 } from './common.js';

const MUTE_TYPES = ['ignored', 'timed', 'ticket', 'none'] as const;
const STRING_MAX = 255;

/**
 * mute_type timed needs a future mute_until, ticket needs ticket_number and an active ticket
 * integration, ignored needs nothing, none clears every mute (api-v2.5, Plugin result mute).
 */
function update(ctx: RequestContext): Reply {
  const result = ownedOr404(ctx, ctx.store.pluginResults, ctx.path.uid ?? '', 'Plugin result');
  const attrs = Attributes.read(ctx, 'plugin_result', ['mute_type', 'mute_until', 'ticket_number', 'ticket_url']);
  const type = attrs.raw('mute_type')?.trim();
  if (type === undefined || type === '') throw missingParameter('plugin_result[mute_type]');
  if (!(MUTE_TYPES as readonly string[]).includes(type))
    throw unprocessable('mute_type', `must be one of ${MUTE_TYPES.join(', ')}`);
  const ticketNumber = attrs.text('ticket_number', STRING_MAX);
  const ticketUrl = attrs.text('ticket_url', STRING_MAX) ?? null;

  let mute: MuteRec | null;
  switch (type) {
    case 'none':
      mute = null;
      break;
    case 'ignored':
      mute = { type: 'ignored' };
      break;
    case 'timed': {
      const raw = attrs.raw('mute_until');
      if (raw === undefined || raw.trim() === '')
        throw unprocessable('mute_until', 'is required when mute_type is timed');
      const until = attrs.integer('mute_until') as number;
      if (until <= ctx.nowSec) throw unprocessable('mute_until', 'must be in the future');
      mute = { type: 'timed', until, ticket_url: ticketUrl };
      break;
    }
    default: {
      if (ticketNumber === undefined || ticketNumber === null || ticketNumber.trim() === '') {
        throw unprocessable('ticket_number', 'is required when mute_type is ticket');
      }
      if (!ctx.settings.ticketIntegration) {
        throw unprocessable('ticket_number', 'cannot be used: no ticket system integration is active for this account');
      }
      mute = { type: 'ticket', ticket_number: ticketNumber, ticket_url: ticketUrl };
    }
  }
  result.mute = mute;
  ctx.store.commit({ saved: [result] });
  return { body: renderPluginResult(ctx, result) };
}

export function pluginResultRoutes(router: Router): void {
  router.add('PUT', '/v2.5/plugin_results/:uid', update);
}
