/** Deterministic randomness for the seed and for uids of records created later. */

/** mulberry32: tiny, fast, good enough for demo data; the whole state is one uint32. */
export class Prng {
  state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /** n lower-case hex digits, 8 per PRNG draw */
  hex(n: number): string {
    let out = '';
    while (out.length < n)
      out += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, n);
  }

  /** opaque uid body: 14 lower-case base36 characters (~72 bits), 7 per PRNG draw */
  uid(prefix: string): string {
    const part = (): string =>
      Math.floor(this.next() * 78_364_164_096)
        .toString(36)
        .padStart(7, '0');
    return prefix + part() + part();
  }

  /** upper-case UUID-shaped client id, as agents generate them */
  uuid(): string {
    const h = this.hex(32).toUpperCase();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89AB'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}

/** Dashboard slug: lower case, runs of anything but letters and digits become one hyphen. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'item' : slug;
}

/** A slug not in `taken`: name, then name-2, name-3 ... */
export function uniqueSlug(name: string, taken: (slug: string) => boolean): string {
  const base = slugify(name);
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}
