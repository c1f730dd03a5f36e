/**
 * Characters as the API counts them: code points, not UTF-16 units (a surrogate pair is one).
 * Counted without building an array, so a 16-million-character note body costs no memory.
 */
export function characters(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}
