import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeText } from '../../src/output/write.js';

/** A stream that keeps every chunk as it was handed over (no conversion of strings). */
function chunkStream(): { stream: Writable; chunks: unknown[] } {
  const chunks: unknown[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, chunks };
}

/** The bytes a stream makes of `text` written as a string: what stdout printed before. */
async function bytesOfString(text: string): Promise<Buffer> {
  const pass = new PassThrough();
  pass.end(text);
  return Buffer.concat(await pass.toArray());
}

// Long enough to go as bytes: JSON of names past Latin-1 (’, CJK, an emoji), C1 and separators escaped or not.
const long = `${'{"name": "Anna D’Amico (desk)", "city": "東京", "tag": "😀", "x": "\u2028"},\n'.repeat(400)}`;

describe('writeText', () => {
  it('hands a stream long text as its UTF-8 bytes, the same bytes as the string made', async () => {
    const { stream, chunks } = chunkStream();
    writeText(stream, long);
    expect(chunks).toHaveLength(1);
    expect(Buffer.isBuffer(chunks[0])).toBe(true);
    expect((chunks[0] as Buffer).equals(await bytesOfString(long))).toBe(true);
    expect((chunks[0] as Buffer).toString('utf8')).toBe(long);
  });

  it('hands a stream long text with a lone surrogate as the string, which the stream writes as before', async () => {
    const { stream, chunks } = chunkStream();
    const broken = `${long}\ud800 and \udc00`;
    writeText(stream, broken);
    expect(chunks).toEqual([broken]);
    expect((await bytesOfString(broken)).subarray(-11).toString('hex')).toBe('efbfbd20616e6420efbfbd');
  });

  it('hands short text, and any sink that is not a stream, the text itself', () => {
    const { stream, chunks } = chunkStream();
    writeText(stream, 'short ’ text\n');
    expect(chunks).toEqual(['short ’ text\n']);
    const written: unknown[] = [];
    writeText({ write: (chunk: string) => written.push(chunk) }, long);
    expect(written).toEqual([long]);
  });
});
