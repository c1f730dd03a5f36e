/**
 * How wide text is on a terminal, in columns, and how to cut it to a width: the one measure of
 * table layout and of truncation. A CJK character or an emoji takes two columns, a combining
 * mark, a zero-width joiner or a variation selector none, and an emoji sequence (👨‍👩‍👧, ❤️, 🇯🇵)
 * is one grapheme. string-width does the measuring (Intl.Segmenter for graphemes, Unicode's
 * East Asian Width, RGI emoji).
 *
 * Most text of a fleet is in Latin letters, where every character is one column and one
 * grapheme: such text is measured by its length, and string-width is loaded only for the first
 * text that is not. Its load sets up ICU's grapheme rules (Intl.Segmenter): about 290 M of the
 * 800 M instructions a one-page table costs (Node 22), which a table of Latin text never pays.
 */
import type stringWidthOf from 'string-width';

/**
 * One column a character, one grapheme a character: printable ASCII, Latin-1 and Latin
 * Extended-A and B (no soft hyphen, which takes none), and the dashes, quotes and bullets of
 * General Punctuation (U+2010–2027). None combines, none is wide or an emoji, and string-width
 * gives each exactly one column.
 */
const ONE_COLUMN_EACH = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u024f\u2010-\u2027]*$/;
/** Colour escapes (chalk's SGR), which take no column. */
const SGR = /\x1b\[[0-9;]*m/g;

let measure: typeof stringWidthOf | undefined;
let graphemes: Intl.Segmenter | undefined;

/** string-width, loaded on first need (a synchronous require: the table is drawn in one go). */
function stringWidth(text: string): number {
  measure ??= (require('string-width') as { default: typeof stringWidthOf }).default;
  return measure(text);
}

/** `text` without colour escapes when it is all one-column characters; undefined otherwise. */
function oneColumnEach(text: string): string | undefined {
  const bare = text.includes('\x1b') ? text.replace(SGR, '') : text;
  return ONE_COLUMN_EACH.test(bare) ? bare : undefined;
}

/** Columns `text` takes on a terminal; colour escapes take none. */
export function displayWidth(text: string): number {
  return oneColumnEach(text)?.length ?? stringWidth(text);
}

/**
 * `text` cut to at most `width` columns, ending with `…`, between graphemes (never inside an
 * emoji sequence or before a combining mark); `text` itself when it fits, or when `width` < 1.
 * A two-column character that would cross the edge is left out, so the result may be a column
 * narrower than `width`.
 */
export function cutToWidth(text: string, width: number): string {
  if (width < 1) return text;
  const plain = oneColumnEach(text);
  if ((plain?.length ?? stringWidth(text)) <= width) return text;
  const room = width - 1; // the `…` takes one
  if (plain === text) return `${text.slice(0, room)}…`;
  let kept = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter();
  for (const { segment } of graphemes.segment(text)) {
    used += stringWidth(segment);
    if (used > room) break;
    kept += segment;
  }
  return `${kept}…`;
}
