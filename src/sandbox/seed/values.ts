/** Small generated values of a computer record: serial numbers, MAC addresses, uptimes, ASCII names. */
import type { Prng } from '../prng.js';
import type { ModelSpec } from './models.js';

export const SERIAL_ALPHABET = 'BCDFGHJKLMNPQRTVWXYZ0123456789';
export const UPPER_ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export function serialFor(rng: Prng, kind: ModelSpec['serial']): string | null {
  switch (kind) {
    case 'apple':
      return rng.chars(SERIAL_ALPHABET, 10);
    case 'dell':
      return rng.chars(UPPER_ALNUM, 7);
    case 'lenovo':
      return `PF${rng.chars(UPPER_ALNUM, 6)}`;
    case 'hp':
      return `5CG${rng.int(1000, 9999)}${rng.chars(UPPER_ALNUM, 3)}`;
    case 'microsoft':
      return String(rng.int(10, 99)) + String(rng.int(1000000000, 9999999999));
    case 'vm':
      return null;
  }
}

export function mac(rng: Prng, prefix: string): string {
  const parts = [prefix];
  for (let i = 0; i < 3; i++) parts.push(rng.hex(2));
  return parts.join(':');
}

export function uptime(rng: Prng): string {
  const days = rng.int(0, 40);
  return `${days} day${days === 1 ? '' : 's'}, ${rng.int(0, 23)}:${String(rng.int(0, 59)).padStart(2, '0')}`;
}

export const asciiCache = new Map<string, string>();
/** login names and e-mail addresses without accents or apostrophes (Siobhán O'Connor -> siobhan.oconnor) */
export function ascii(s: string): string {
  let out = asciiCache.get(s);
  if (out === undefined) {
    out = s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\u0142/g, 'l') // ł
      .replace(/\u0141/g, 'L') // Ł
      .replace(/[^A-Za-z0-9.@_-]/g, '');
    asciiCache.set(s, out);
  }
  return out;
}
