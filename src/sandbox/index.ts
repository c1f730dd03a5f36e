/**
 * What the rest of mon uses of the sandbox: the in-process server of `--sandbox`, and `mon
 * sandbox` serve and reset. Built on its own as dist/sandbox.cjs, which only those commands load:
 * a plain request never reads the sandbox's code (scripts/esbuild.config.mjs).
 */
export { startSandbox } from './server.js';
export { callControl, resetEverySandbox, resetSandbox, serveForeground, servingSandbox } from './cli.js';
export { SANDBOX_API_KEY } from './server.js';
