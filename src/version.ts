// Replaced at build time with package.json's version; the fallback serves tests run from source.
declare const __MON_VERSION__: string | undefined;

export const VERSION: string = typeof __MON_VERSION__ === 'string' ? __MON_VERSION__ : '0.0.0-dev';
