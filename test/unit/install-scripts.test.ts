import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * #12 item 14: `npm ci` and `npm link` (the README's set-up) print no install-script warnings on
 * npm 11, and npm 10 accepts the same files. npm 11 warns about every dependency whose
 * preinstall/install/postinstall (or, from a link, prepare) is not in package.json's
 * allowScripts; `npm link` installs this folder as a link, so its own such scripts count too.
 */
const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  files: string[];
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe('install scripts', () => {
  it('every dependency with an install script is reviewed in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts).toContain('esbuild');
    const unreviewed = withScripts.filter(
      (name) =>
        typeof pkg.allowScripts?.[name] !== 'boolean' &&
        !Object.keys(pkg.allowScripts ?? {}).some((key) => key.startsWith(`${name}@`)),
    );
    expect(unreviewed).toEqual([]);
  });

  it('the project has no script that npm link would run as an install script', () => {
    expect(
      Object.keys(pkg.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name)),
    ).toEqual([]);
  });

  it('npm ci and npm install still build dist/ (postprepare runs after them), and so does npm pack', () => {
    expect(pkg.scripts.postprepare).toBe('node scripts/build.mjs');
    expect(pkg.scripts.prepack).toBe('node scripts/build.mjs');
  });

  it('the package ships the --jq worker: the build writes it into dist/, beside the bundle', () => {
    expect(pkg.files).toContain('dist');
    // The test set-up has just built dist/.
    expect(readFileSync(new URL('dist/jq-worker.cjs', root), 'utf8')).toContain('jq-wasm');
  });
});
