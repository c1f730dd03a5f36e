// Run before every test file (vitest.config.ts, setupFiles): what the helpers made for a file
// is removed once its tests are done, so a run of the suite leaves nothing in the temporary folder.
import { afterAll } from 'vitest';
import { removeTempConfigDirs } from './run-mon.js';

afterAll(removeTempConfigDirs);
