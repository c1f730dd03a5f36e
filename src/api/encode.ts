/** A value as the API takes it: scalars, name[] arrays, or resource[attribute] objects. */
export type Scalar = string | number | boolean;
/** The attributes of a resource body (computer[custom_name]), or the keys of a query. */
export type Attributes = Readonly<Record<string, Scalar | readonly Scalar[] | undefined>>;
export type ParamValue = Scalar | readonly Scalar[] | Attributes | undefined;
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * Flattens parameters into the key/value pairs of api-v2.5 "General conventions" 7: attributes
 * as resource[attribute], arrays as name[]=value. Undefined values are left out; booleans are
 * sent as true/false.
 */
export function flattenParams(params: Params): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly Scalar[]) pairs.push([`${key}[]`, String(item)]);
    } else if (typeof value === 'object') {
      for (const [attribute, inner] of Object.entries(value as Attributes)) {
        if (Array.isArray(inner))
          for (const item of inner as readonly Scalar[]) pairs.push([`${key}[${attribute}][]`, String(item)]);
        else if (inner !== undefined) pairs.push([`${key}[${attribute}]`, String(inner)]);
      }
    } else {
      pairs.push([key, String(value)]);
    }
  }
  return pairs;
}

/** application/x-www-form-urlencoded text of the pairs (also right for a query string). */
export function encodeForm(pairs: readonly [string, string][]): string {
  return new URLSearchParams(pairs as [string, string][]).toString();
}

/**
 * expand[] keys a request already carries, followed by more (the global --expand, or a table's
 * own): one list, each key once. Spreading one over the other would drop the first.
 */
export function withExpand(own: ParamValue, more: readonly string[]): string[] {
  const given = own === undefined ? [] : Array.isArray(own) ? own : [own];
  return [...new Set([...given, ...more].map(String))];
}
