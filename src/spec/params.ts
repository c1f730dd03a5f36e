import type { Attributes, Scalar } from '../api/encode.js';
import { optionKey, type OptionSpec } from './spec.js';

/**
 * The one mapping from parsed options to API parameters: every option that declares a `param`
 * gives that key, in the order the options are declared, with its checked value (undefined
 * when not given; the encoder leaves those out). A repeatable option given once is sent as one
 * value, given more often as an array (`platform=mac`, `platform[]=mac&platform[]=linux`:
 * api-v2.5, Computers > List). Handlers put the result into a query or a resource body.
 */
export function apiParams(options: readonly OptionSpec[], opts: Readonly<Record<string, unknown>>): Attributes {
  const params: Record<string, Scalar | readonly Scalar[] | undefined> = {};
  for (const option of options) {
    if (option.param === undefined) continue;
    // checkInput made these: strings, numbers and booleans, arrays of them for repeatable options
    const value = opts[optionKey(option)] as Scalar | readonly Scalar[] | undefined;
    params[option.param] = Array.isArray(value) && value.length === 1 ? (value[0] as Scalar) : value;
  }
  return params;
}
