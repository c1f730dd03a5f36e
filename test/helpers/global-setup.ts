import { existsSync } from 'node:fs';

/** The e2e tests spawn bin/mon, which runs the bundle: fail early and clearly without one. */
export default function setup(): void {
  if (!existsSync(new URL('../../dist/mon.cjs', import.meta.url))) {
    throw new Error('dist/mon.cjs is missing: run `npm run build` before `npm test`');
  }
}
