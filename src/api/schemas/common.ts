// zod/mini: the same checks as zod's classic API, in a fraction of the code to load per run.
import * as z from 'zod/mini';

// Tolerant building blocks: api-v2.5 says unknown facts are null (General conventions 9), and
// real payloads differ from the field tables, so every field is optional and nullable, and
// unknown keys are welcome. The schemas only check: what mon prints is the object as received,
// unknown keys and all, so the checked copy need not carry them (z.object, which is also
// cheaper over 10,000 computers than z.looseObject).

/** A time: epoch seconds as documented, or the ISO 8601 string a sample shows. */
export const Time = z.nullish(z.union([z.number(), z.string()]));
export const Text = z.nullish(z.string());
export const Flag = z.nullish(z.boolean());
export const Count = z.nullish(z.number());
/** A decimal: the service renders it as a JSON string ("30.33"); the field table says decimal. */
export const Decimal = z.nullish(z.union([z.number(), z.string()]));
/** Group uid arrays: documented as integer, sampled as uid strings. */
export const UidList = z.nullish(z.array(z.union([z.string(), z.number()])));

/** `build()`'s result, built on the first call only. */
export function lazily<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** Every object carries a uid; the rest is the resource's. */
export function resource<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.object({ uid: z.string(), ...shape });
}

/** One entry of the JSON error array (api-v2.5, Errors). */
export const ApiErrorEntry = z.looseObject({
  status_code: z.nullish(z.number()),
  code: Text,
  title: Text,
  details: Text,
  attribute: Text,
});
export const ApiErrorBody = z.array(ApiErrorEntry);
export type ApiErrorEntry = z.infer<typeof ApiErrorEntry>;
