import { transcode } from 'node:buffer';
import { Writable } from 'node:stream';
import type { Sink } from './types.js';

/** Text at least this long goes to a stream as bytes (see writeText); shorter costs little either way. */
const BYTES_FROM = 16 * 1024;

/**
 * Writes `text` to `out`. To a stream (stdout, --output-file's file) long text goes as its UTF-8
 * bytes, made by buffer.transcode from the text's UTF-16 code units: the very bytes the stream
 * would make of the string, made faster. V8 encodes a string that holds any character past
 * Latin-1 one character at a time: 145 KB of JSON with one ’ in it cost 5 M instructions to
 * encode on Node 24, 0.6 M this way (a one-request `computers list --json`: about 4.7 M less on
 * Node 24, 2.5 M on Node 22). Text with a lone surrogate, which transcode refuses, goes as it is,
 * and the stream writes U+FFFD for it as it always has; so does all text on a Node built without
 * ICU (no transcode). Any other sink (a test's buffer, --jq's filter) takes the text itself.
 */
export function writeText(out: Sink, text: string): void {
  const bytes = text.length >= BYTES_FROM && out instanceof Writable ? utf8(text) : undefined;
  out.write((bytes ?? text) as string);
}

/** The UTF-8 bytes of well-formed `text`; undefined for text with a lone surrogate, or without ICU. */
function utf8(text: string): Buffer | undefined {
  if (typeof transcode !== 'function') return undefined;
  try {
    return transcode(Buffer.from(text, 'ucs2'), 'ucs2', 'utf8');
  } catch {
    return undefined;
  }
}
