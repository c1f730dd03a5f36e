import { VERSION } from '../version.js';
import type { VerbSpec } from '../spec/spec.js';

/**
 * `mon version`: what `mon --version` prints, for those who type it as gh, kubectl and doctl
 * take it. Left out of the root help's list (one screen); `--version`'s help names it.
 */
export const version: VerbSpec = {
  name: 'version',
  jsonOutput: false,
  hidden: true,
  summary: 'Print the version (as mon --version)',
  examples: ['mon version'],
  async run(_input, ctx) {
    ctx.io.stdout.write(`${VERSION}\n`);
  },
};
