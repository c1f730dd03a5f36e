import * as z from 'zod/mini';
import type { RouteName } from '../endpoints.js';
import { lazily } from './common.js';
import { Catalogue, Computer, Expiration, Group, Note, PluginResult, User } from './resources.js';

/** A response's schema, built on first use (see resources.ts); none for an empty answer. */
type Shape = { schema: () => z.ZodMiniType } | undefined;

const one = (item: () => z.ZodMiniType): Shape => ({ schema: item });
const many = (item: () => z.ZodMiniType): Shape => ({ schema: lazily(() => z.array(item())) });
const empty: Shape = undefined;

/** What each route answers with on success (api-v2.5, Endpoints). */
export const RESPONSES: Record<RouteName, Shape> = {
  'groups.list': many(Group),
  'groups.get': one(Group),
  'groups.findOrCreate': one(Group),
  'groups.update': one(Group),
  'computers.list': many(Computer),
  'computers.get': one(Computer),
  'computers.update': one(Computer),
  'expirations.list': many(Expiration),
  'expirations.get': one(Expiration),
  'expirations.create': one(Expiration),
  'expirations.update': one(Expiration),
  'expirations.delete': empty,
  'expirationManufacturers.list': many(Catalogue),
  'expirationManufacturers.get': one(Catalogue),
  'expirationManufacturers.create': one(Catalogue),
  'expirationManufacturers.update': one(Catalogue),
  'expirationManufacturers.delete': empty,
  'expirationProducts.list': many(Catalogue),
  'expirationProducts.get': one(Catalogue),
  'expirationProducts.create': one(Catalogue),
  'expirationProducts.update': one(Catalogue),
  'expirationProducts.delete': empty,
  'notes.list': many(Note),
  'notes.get': one(Note),
  'notes.create': one(Note),
  'notes.update': one(Note),
  'notes.delete': empty,
  'pluginResults.update': one(PluginResult),
  'users.list': many(User),
};

/**
 * Checks a decoded body against the route's shape and returns a one-line description of the
 * first mismatch, or undefined when it fits. The body itself is never changed: JSON output is
 * the API's objects as received.
 */
export function checkResponse(route: RouteName, body: unknown): string | undefined {
  const shape = RESPONSES[route];
  if (!shape) return undefined;
  const result = shape.schema().safeParse(body);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  if (!issue) return 'unexpected response';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `${where}: ${issue.message}`;
}
