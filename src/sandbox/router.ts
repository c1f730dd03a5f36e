/**
 * A small route table: "METHOD /v2.5/things/:uid" -> handler. A path that matches with
 * another method gives 405 with an Allow header; no match at all gives 404.
 */
import type { Params } from './http.js';
import type { AccountId } from './model.js';
import type { ExpandTree, RenderCtx } from './render.js';

export interface SandboxSettings {
  /** ticket mutes need an active ticket system integration (api-v2.5, Plugin result mute) */
  ticketIntegration: boolean;
}

export interface RequestContext extends RenderCtx {
  method: string;
  account: AccountId;
  /** query string merged with the form body (body wins on a clash) */
  params: Params;
  /** decoded :placeholders of the route */
  path: Record<string, string>;
  expand: ExpandTree;
  settings: SandboxSettings;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Reply;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export type Match =
  | { kind: 'found'; handler: Handler; path: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: split(pattern), handler });
    return this;
  }

  /** Static segments win over placeholders, so /groups/find_or_create is not read as a uid. */
  match(method: string, pathname: string): Match {
    const parts = split(pathname);
    let best: { route: Route; path: Record<string, string>; score: number } | undefined;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const m = matchSegments(route.segments, parts);
      if (!m) continue;
      allowed.add(route.method);
      if (route.method !== method) continue;
      if (!best || m.score > best.score) best = { route, path: m.path, score: m.score };
    }
    if (best) return { kind: 'found', handler: best.route.handler, path: best.path };
    if (allowed.size > 0) return { kind: 'method', allowed: [...allowed].sort() };
    return { kind: 'none' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(
  pattern: string[],
  parts: string[],
): { path: Record<string, string>; score: number } | undefined {
  if (pattern.length !== parts.length) return undefined;
  const path: Record<string, string> = {};
  let score = 0;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(v);
      } catch {
        return undefined;
      }
      path[p.slice(1)] = decoded;
    } else if (p === v) {
      score++;
    } else {
      return undefined;
    }
  }
  return { path, score };
}
