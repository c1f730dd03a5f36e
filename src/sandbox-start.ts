import { sandboxStateError, sandboxStateFile } from './config/paths.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/** --sandbox: the sandbox in this process, on its own state file, closed when the command ends. */
export async function startInProcessSandbox(
  ctx: Context,
): Promise<{ baseUrl: string; baseUrlSource: string; apiKey: string }> {
  // Imported from outside src/sandbox/, the build leaves it to sandbox.cjs (scripts/esbuild.config.mjs, SEPARATE_FILES).
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({ stateFile: sandboxStateFile(ctx.configDir) }).catch((error: Error) => {
    // A corrupt state file: the sandbox's message names it and the way out.
    throw (
      sandboxStateError(error, ctx.configDir) ??
      new UsageError(error.message.split('\n')[0] ?? 'the sandbox could not start')
    );
  });
  ctx.life.onExit(() => sandbox.close());
  return { baseUrl: sandbox.url, baseUrlSource: 'sandbox', apiKey: sandbox.apiKey };
}
