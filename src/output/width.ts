/**
 * How wide text is on a terminal, in columns, and how to cut it to a width: the one measure of
 * table layout and of truncation. A CJK character or an emoji takes two columns, a combining
 * mark, a zero-width joiner or a variation selector none, and an emoji sequence (👨‍👩‍👧, ❤️, 🇯🇵)
 * is one grapheme. string-width does the measuring (Intl.Segmenter for graphemes, Unicode's
 * East Asian Width, RGI emoji); loaded with the table kit only, since csv/tsv/json never need it.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter();

/** Columns `text` takes on a terminal; colour escapes take none. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * `text` cut to at most `width` columns, ending with `…`, between graphemes (never inside an
 * emoji sequence or before a combining mark); `text` itself when it fits, or when `width` < 1.
 * A two-column character that would cross the edge is left out, so the result may be a column
 * narrower than `width`.
 */
export function cutToWidth(text: string, width: number): string {
  if (width < 1 || displayWidth(text) <= width) return text;
  const room = width - 1; // the `…` takes one
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    used += stringWidth(segment);
    if (used > room) break;
    kept += segment;
  }
  return `${kept}…`;
}
