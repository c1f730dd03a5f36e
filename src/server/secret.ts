import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `given` is `expected`, in a time that says nothing of how much of it matched nor of
 * its length (both are hashed to the same size first). Nothing given never matches.
 */
export function sameSecret(given: string | undefined, expected: string): boolean {
  const equal = timingSafeEqual(digest(given ?? ''), digest(expected));
  return given !== undefined && equal;
}
