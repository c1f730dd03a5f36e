/**
 * Deterministic demo data. The same seed, computer count and clock give the same state, byte
 * for byte. Times are placed "around today" relative to the clock at seeding time.
 *
 * The account looks like a real customer's on a normal morning (src/sandbox/README.md, Data):
 * each computer gets one health state and a few flags by proportion, drawn as exact counts
 * (not coin flips) over a shuffled order, so the proportions hold at 40 computers as at 10 000
 * and the small fleet still holds every case.
 *
 * The tables the data is drawn from live in seed/ (groups, names, models, plugins, catalogue,
 * shares), beside the steps that draw it (plan, computers, expirations, records). The steps
 * run in a fixed order: each takes its values from the one PRNG in turn.
 */
import {
  type AccountId,
  type CatalogRec,
  type ComputerRec,
  type ExpirationRec,
  type GroupRec,
  type NoteRec,
  OTHER_ACCOUNT,
  PRIMARY_ACCOUNT,
  type PluginResultRec,
  STATE_FORMAT,
  STATE_VERSION,
  type StateData,
  type UserRec,
} from './model.js';
import { Prng } from './prng.js';
import { makeComputer, makePluginResults } from './seed/computers.js';
import { DAY, dayStart, type SeedContext } from './seed/context.js';
import { makeExpirations } from './seed/expirations.js';
import { type GroupSpec, OTHER_GROUP, PRIMARY_GROUPS } from './seed/groups.js';
import { MANUFACTURERS, PRODUCTS } from './seed/catalogue.js';
import { OK_PLAN, type Plan, planFleet } from './seed/plan.js';
import { catalog, makeGroup, makeNotes, makeUsers } from './seed/records.js';

export { pluginDetails } from './seed/plugins.js';

export interface SeedOptions {
  seed: number;
  computers: number;
  nowMs: number;
}

/** One subscriber's records, before they are put together into the state. */
interface AccountData {
  groups: GroupRec[];
  computers: ComputerRec[];
  expirations: ExpirationRec[];
  makers: CatalogRec[];
  products: CatalogRec[];
  notes: NoteRec[];
  users: UserRec[];
}

/** The primary subscriber: the planned fleet, its plugin results, catalogue, expirations, notes and users. */
function seedPrimary(ctx: SeedContext, n: number): AccountData {
  const account: AccountId = PRIMARY_ACCOUNT;
  const groups = PRIMARY_GROUPS.map((spec, i) => makeGroup(ctx, account, spec, i));
  const plans = planFleet(ctx.rng, n);
  const computers: ComputerRec[] = [];
  for (let i = 0; i < n; i++) {
    const plan = plans[i] as Plan;
    const computer = makeComputer(
      ctx,
      account,
      i,
      groups[plan.group] as GroupRec,
      PRIMARY_GROUPS[plan.group] as GroupSpec,
      plan,
    );
    computers.push(computer);
    makePluginResults(ctx, computer, plan);
  }
  const makers = catalog(ctx, account, MANUFACTURERS, 'em_');
  const products = catalog(ctx, account, PRODUCTS, 'ep_');
  const expirations = makeExpirations(ctx, account, groups, computers, makers, products);
  const notes = makeNotes(ctx, account, groups, computers);
  const users = makeUsers(ctx, account, groups, 'demo', 'sandbox.example');
  return { groups, computers, expirations, makers, products, notes, users };
}

/** The second subscriber: a small separate data set whose items are 403 for the primary key. */
function seedOther(ctx: SeedContext): AccountData {
  const { rng } = ctx;
  const otherGroup = makeGroup(ctx, OTHER_ACCOUNT, OTHER_GROUP, 1);
  const otherPlans: Plan[] = [OK_PLAN, { ...OK_PLAN, health: 'warning' }];
  const otherComputers = [0, 8].map((i, k) =>
    makeComputer(ctx, OTHER_ACCOUNT, i, otherGroup, OTHER_GROUP, otherPlans[k] as Plan),
  );
  otherComputers.forEach((c, k) => makePluginResults(ctx, c, otherPlans[k] as Plan));
  const otherMakers = catalog(ctx, OTHER_ACCOUNT, ['Apple'], 'em_');
  const otherProducts = catalog(ctx, OTHER_ACCOUNT, ['AppleCare+ for Mac'], 'ep_');
  const otherMaker = otherMakers[0] as CatalogRec;
  const otherProduct = otherProducts[0] as CatalogRec;
  const otherMac = otherComputers[0] as ComputerRec;
  const otherExpiration: ExpirationRec = {
    uid: rng.uid('e_'),
    account: OTHER_ACCOUNT,
    license_key: otherMac.serial_number ?? 'CON-0001',
    expires_at: dayStart(ctx.now) + 90 * DAY,
    expiration_manufacturer: otherMaker.uid,
    expiration_product: otherProduct.uid,
    group: otherGroup.uid,
    computer: otherMac.uid,
    renewable: true,
    notes: null,
    created_at: ctx.now - 30 * DAY,
    updated_at: ctx.now - 30 * DAY,
  };
  const otherNote: NoteRec = {
    uid: rng.uid('n_'),
    account: OTHER_ACCOUNT,
    computer: null,
    group: otherGroup.uid,
    body: 'Contoso lab machines are reimaged every Friday.',
    created_at: ctx.now - 12 * DAY,
    private: false,
    include_in_email: false,
    include_in_report: false,
  };
  const otherUsers = makeUsers(ctx, OTHER_ACCOUNT, [otherGroup], 'contoso', 'contoso.example');
  return {
    groups: [otherGroup],
    computers: otherComputers,
    expirations: [otherExpiration],
    makers: otherMakers,
    products: otherProducts,
    notes: [otherNote],
    users: otherUsers,
  };
}

/** Builds a fresh state. Pure: depends only on the options. */
export function seedState(opts: SeedOptions): StateData {
  if (!Number.isSafeInteger(opts.computers) || opts.computers < 0)
    throw new Error(`computers must be a non-negative integer, got ${opts.computers}`);
  const rng = new Prng(opts.seed);
  const ctx: SeedContext = { rng, now: Math.floor(opts.nowMs / 1000), pluginResults: [] };
  const primary = seedPrimary(ctx, opts.computers);
  const other = seedOther(ctx);
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    seed: opts.seed,
    computerCount: opts.computers,
    seededAtMs: opts.nowMs,
    rng: rng.state,
    groups: [...primary.groups, ...other.groups],
    computers: [...primary.computers, ...other.computers],
    pluginResults: ctx.pluginResults,
    expirations: [...primary.expirations, ...other.expirations],
    expirationManufacturers: [...primary.makers, ...other.makers],
    expirationProducts: [...primary.products, ...other.products],
    notes: [...primary.notes, ...other.notes],
    users: [...primary.users, ...other.users],
  };
}

/**
 * A computer enrolling now (the living fleet, src/sandbox/live.ts): made as the seed makes an
 * OK computer, in the group new machines are enrolled in ("Staging – new hires"), created and
 * reported at `nowSec`. `index` numbers its name; `rng` gives every value, uids included.
 */
export function enrolComputer(
  rng: Prng,
  groups: readonly GroupRec[],
  index: number,
  nowSec: number,
): { computer: ComputerRec; pluginResults: PluginResultRec[] } {
  const gi = PRIMARY_GROUPS.length - 1;
  const spec = PRIMARY_GROUPS[gi] as GroupSpec;
  const group =
    groups.find((g) => g.account === PRIMARY_ACCOUNT && g.name === spec.name) ??
    groups.find((g) => g.account === PRIMARY_ACCOUNT);
  if (!group) throw new Error('no group to enrol a computer in');
  const ctx: SeedContext = { rng, now: nowSec, pluginResults: [] };
  const plan: Plan = { ...OK_PLAN, group: gi };
  const computer = makeComputer(ctx, PRIMARY_ACCOUNT, index, group, spec, plan);
  Object.assign(computer, { created_at: nowSec, registration_date: nowSec, last_report: nowSec, last_update: nowSec });
  makePluginResults(ctx, computer, plan);
  for (const result of ctx.pluginResults) result.last_run = nowSec;
  return { computer, pluginResults: ctx.pluginResults };
}
