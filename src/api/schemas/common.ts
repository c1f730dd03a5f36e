import { z } from 'zod';

// Tolerant building blocks: api-v2.5 says unknown facts are null (General conventions 9), and
// real payloads differ from the field tables, so every field is optional and nullable, and
// unknown keys are kept (z.looseObject).

/** A time: epoch seconds as documented, or the ISO 8601 string a sample shows. */
export const Time = z.union([z.number(), z.string()]).nullish();
export const Text = z.string().nullish();
export const Flag = z.boolean().nullish();
export const Count = z.number().nullish();
/** Group uid arrays: documented as integer, sampled as uid strings. */
export const UidList = z.array(z.union([z.string(), z.number()])).nullish();

/** Every object carries a uid; the rest is the resource's. */
export function resource<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.looseObject({ uid: z.string(), ...shape });
}

/** One entry of the JSON error array (api-v2.5, Errors). */
export const ApiErrorEntry = z.looseObject({
  status_code: z.number().nullish(),
  code: Text,
  title: Text,
  details: Text,
  attribute: Text,
});
export const ApiErrorBody = z.array(ApiErrorEntry);
export type ApiErrorEntry = z.infer<typeof ApiErrorEntry>;
