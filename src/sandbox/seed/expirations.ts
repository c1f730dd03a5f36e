/**
 * The primary subscriber's expirations: warranty and support contracts of computers, then
 * licences of groups. Each step draws from the PRNG in turn, so their order is fixed.
 */
import type { AccountId, CatalogRec, ComputerRec, ExpirationRec, GroupRec } from '../model.js';
import type { Prng } from '../prng.js';
import { SERIAL_KIND, SUPPORT } from './catalogue.js';
import { DAY, dayStart, type SeedContext } from './context.js';
import { shuffled } from './plan.js';
import { EXPIRATION_SHARE, shareCount } from './shares.js';
import { findCatalog } from './records.js';
import { UPPER_ALNUM } from './values.js';

type Fields = Omit<ExpirationRec, 'uid' | 'account' | 'created_at' | 'updated_at'>;

/** Adds one expiration, created some time before it expires. */
type Add = (e: Fields) => void;

/** The catalogue of the subscriber, found by name. */
interface Catalogue {
  maker(name: string): string;
  product(name: string): string;
}

/** Days from today, spread evenly over the past and the next year (jittered within each slot). */
function spreadDays(rng: Prng, k: number, count: number): number {
  const slot = 730 / Math.max(1, count);
  return Math.floor(-365 + (k + rng.next()) * slot);
}

/** Warranty and support contracts of computers, spread over the past and the next year. */
function addCoverage(rng: Prng, today: number, computers: ComputerRec[], catalogue: Catalogue, add: Add): void {
  const covered = computers.filter(
    (c) => c.serial_number !== null && SUPPORT[SERIAL_KIND.get(c.model_name) ?? 'vm'] !== undefined,
  );
  const order = shuffled(rng, covered.length);
  const count = shareCount(EXPIRATION_SHARE, computers.length, covered.length);
  const picked = order.slice(0, count).sort((x, y) => x - y);
  picked.forEach((idx, k) => {
    const c = covered[idx] as ComputerRec;
    const support = SUPPORT[SERIAL_KIND.get(c.model_name) ?? 'vm'];
    if (!support || c.serial_number === null) return;
    const days = spreadDays(rng, (k * 7) % count, count);
    add({
      license_key: c.serial_number,
      expires_at: today + days * DAY,
      expiration_manufacturer: catalogue.maker(support.maker),
      expiration_product: catalogue.product(support.product),
      group: c.group,
      computer: c.uid,
      renewable: support.maker !== 'Apple' || k % 2 === 0,
      notes: days < -30 && k % 3 === 0 ? 'Coverage lapsed; replacement planned for next budget.' : null,
    });
  });
}

/** A Microsoft 365 licence for each visible group that has computers. */
function addOfficeLicences(rng: Prng, today: number, licensed: GroupRec[], catalogue: Catalogue, add: Add): void {
  const m365 = catalogue.product('Microsoft 365 Business Premium');
  const microsoft = catalogue.maker('Microsoft');
  licensed.forEach((g, k) => {
    const days = spreadDays(rng, k, licensed.length);
    add({
      license_key: `M365-${rng.chars(UPPER_ALNUM, 5)}-${rng.chars(UPPER_ALNUM, 5)}`,
      expires_at: today + days * DAY,
      expiration_manufacturer: microsoft,
      expiration_product: m365,
      group: g.uid,
      computer: null,
      renewable: true,
      notes: `${rng.int(5, 40)} seats, annual commitment.`,
    });
  });
}

/** Licences of named groups: Adobe for the studio and the café, JetBrains and Windows Server for engineering. */
function addNamedLicences(rng: Prng, today: number, licensed: GroupRec[], catalogue: Catalogue, add: Add): void {
  const byName = (name: string): GroupRec | undefined => licensed.find((g) => g.name === name);
  for (const [name, days] of [
    ['Acme Design', -10],
    ['Café Lumière', 45],
  ] as const) {
    const g = byName(name);
    if (g)
      add({
        license_key: `ADB-${rng.chars(UPPER_ALNUM, 12)}`,
        expires_at: today + days * DAY,
        expiration_manufacturer: catalogue.maker('Adobe'),
        expiration_product: catalogue.product('Adobe Creative Cloud All Apps'),
        group: g.uid,
        computer: null,
        renewable: true,
        notes: days < 0 ? 'Renewal invoice sent to finance.' : null,
      });
  }
  const eng = byName('Summit Engineering');
  if (!eng) return;
  add({
    license_key: `JB-${rng.chars(UPPER_ALNUM, 10)}`,
    expires_at: today + 60 * DAY,
    expiration_manufacturer: catalogue.maker('JetBrains'),
    expiration_product: catalogue.product('JetBrains All Products Pack'),
    group: eng.uid,
    computer: null,
    renewable: false,
    notes: null,
  });
  add({
    license_key: `WS22-${rng.chars(UPPER_ALNUM, 5)}-${rng.chars(UPPER_ALNUM, 5)}`,
    expires_at: today - 200 * DAY,
    expiration_manufacturer: catalogue.maker('Microsoft'),
    expiration_product: catalogue.product('Windows Server 2022 Standard'),
    group: eng.uid,
    computer: null,
    renewable: false,
    notes: 'Perpetual licence; software assurance lapsed.',
  });
}

export function makeExpirations(
  ctx: SeedContext,
  account: AccountId,
  groups: GroupRec[],
  computers: ComputerRec[],
  makers: CatalogRec[],
  products: CatalogRec[],
): ExpirationRec[] {
  const { rng, now } = ctx;
  const out: ExpirationRec[] = [];
  const today = dayStart(now);
  const add: Add = (e) => {
    const created = Math.min(now - rng.int(20, 400) * DAY, (e.expires_at ?? now) - 30 * DAY);
    out.push({ uid: rng.uid('e_'), account, ...e, created_at: created, updated_at: created + rng.int(0, 10) * DAY });
  };
  const catalogue: Catalogue = {
    maker: (name) => findCatalog(makers, name).uid,
    product: (name) => findCatalog(products, name).uid,
  };
  addCoverage(rng, today, computers, catalogue, add);
  // licences of groups that have computers
  const used = new Set(computers.map((c) => c.group));
  const licensed = groups.filter((g) => !g.hidden && used.has(g.uid));
  addOfficeLicences(rng, today, licensed, catalogue, add);
  addNamedLicences(rng, today, licensed, catalogue, add);
  return out;
}
