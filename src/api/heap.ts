import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps a long `--all` at the memory of a short one. Every page's body is a string of a few
 * hundred KB, which V8 keeps in its large-object space until a full collection, and a process
 * that lives a few seconds rarely reaches one: its resident memory grows with the number of
 * pages although almost nothing stays alive (the live heap stays under 20 MB). A full
 * collection every few pages (a few ms each on so small a heap) gives that memory back.
 * Returns the function to call once a page has been handled.
 */
export function collectEvery(pages: number): () => void {
  // The documented way to reach V8's collector from a running process: expose it, then take
  // it from a fresh context, where the flag applies. (bin/load-bundle.cjs sets it as well,
  // before compiling: see BUNDLE_V8_FLAGS there.)
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let handled = 0;
  return () => {
    if (++handled % pages === 0) gc();
  };
}
