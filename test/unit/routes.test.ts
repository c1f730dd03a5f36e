import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type RouteName } from '../../src/api/endpoints.js';
import { COMMANDS } from '../../src/commands/index.js';
import { isResource } from '../../src/spec/spec.js';

/** The command table of docs/design/cli-contract.md ("Shape"), as command -> route. */
const CONTRACT: Record<string, RouteName> = {
  'groups list': 'groups.list',
  'groups get': 'groups.get',
  'groups find-or-create': 'groups.findOrCreate',
  'groups update': 'groups.update',
  'computers list': 'computers.list',
  'computers get': 'computers.get',
  'computers update': 'computers.update',
  'expirations list': 'expirations.list',
  'expirations get': 'expirations.get',
  'expirations create': 'expirations.create',
  'expirations update': 'expirations.update',
  'expirations delete': 'expirations.delete',
  'expiration-manufacturers list': 'expirationManufacturers.list',
  'expiration-manufacturers get': 'expirationManufacturers.get',
  'expiration-manufacturers create': 'expirationManufacturers.create',
  'expiration-manufacturers update': 'expirationManufacturers.update',
  'expiration-manufacturers delete': 'expirationManufacturers.delete',
  'expiration-products list': 'expirationProducts.list',
  'expiration-products get': 'expirationProducts.get',
  'expiration-products create': 'expirationProducts.create',
  'expiration-products update': 'expirationProducts.update',
  'expiration-products delete': 'expirationProducts.delete',
  'notes list': 'notes.list',
  'notes get': 'notes.get',
  'notes create': 'notes.create',
  'notes update': 'notes.update',
  'notes delete': 'notes.delete',
  // mute and unmute are the same endpoint with another mute_type (docs/design/cli-contract.md).
  'plugin mute': 'pluginResults.update',
  'plugin unmute': 'pluginResults.update',
  'users list': 'users.list',
};

const declared = Object.fromEntries(
  COMMANDS.filter(isResource).flatMap((resource) =>
    resource.verbs
      .filter((verb) => verb.route !== undefined)
      .map((verb) => [`${resource.name} ${verb.name}`, verb.route]),
  ),
);

describe('the route table', () => {
  it('maps each command to the endpoint the contract gives it', () => {
    expect(declared).toEqual(CONTRACT);
  });

  it('gives every endpoint of the reference a command', () => {
    const used = new Set(Object.values(declared));
    expect(Object.keys(ENDPOINTS).filter((route) => !used.has(route as RouteName))).toEqual([]);
  });

  it('uses each endpoint for exactly one command, but for mute/unmute', () => {
    const counts = new Map<string, number>();
    for (const route of Object.values(declared)) counts.set(route!, (counts.get(route!) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([['pluginResults.update', 2]]);
  });
});
