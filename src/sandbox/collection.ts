/** The sandbox's records in memory: one collection per kind, indexed by uid, and which collection a uid is in. */
import type { AccountId } from './model.js';

/** Records that carry a uid and an owner. */
export interface Owned {
  uid: string;
  account: AccountId;
}

/** An array of records plus a uid index; order of the array is insertion order. */
export class Collection<T extends Owned> {
  readonly items: T[];
  private readonly byUid = new Map<string, T>();

  constructor(items: T[]) {
    this.items = items;
    for (const item of items) this.byUid.set(item.uid, item);
  }

  get(uid: string): T | undefined {
    return this.byUid.get(uid);
  }

  has(uid: string): boolean {
    return this.byUid.has(uid);
  }

  insert(item: T): void {
    this.items.push(item);
    this.byUid.set(item.uid, item);
  }

  remove(uid: string): void {
    const item = this.byUid.get(uid);
    if (!item) return;
    this.byUid.delete(uid);
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
  }

  ofAccount(account: AccountId): T[] {
    return this.items.filter((item) => item.account === account);
  }
}

export type CollectionKey = (typeof COLLECTION_KEYS)[number];

export const COLLECTION_KEYS = [
  'groups',
  'computers',
  'pluginResults',
  'expirations',
  'expirationManufacturers',
  'expirationProducts',
  'notes',
  'users',
] as const;

/** Which collection a uid belongs to, by its prefix (em_ and ep_ before e_). */
const COLLECTION_OF_PREFIX: readonly [string, CollectionKey][] = [
  ['em_', 'expirationManufacturers'],
  ['ep_', 'expirationProducts'],
  ['pr_', 'pluginResults'],
  ['g_', 'groups'],
  ['c_', 'computers'],
  ['e_', 'expirations'],
  ['n_', 'notes'],
  ['u_', 'users'],
];

export function collectionKeyOf(uid: string): CollectionKey {
  const key = COLLECTION_OF_PREFIX.find(([prefix]) => uid.startsWith(prefix))?.[1];
  if (!key) throw new Error(`no collection holds uid ${uid}`);
  return key;
}
