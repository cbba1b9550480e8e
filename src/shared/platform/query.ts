import { z } from './zod-spanish';

/** A query-string filter: absent and empty both mean "any". */
export function optionalFilter<T extends z.ZodType<string>>(schema: T) {
  return z
    .union([z.literal(''), schema])
    .optional()
    .transform((v) => (v === '' || v === undefined ? undefined : (v as z.output<T>)));
}

/** `/:id` of a row: a positive 32-bit integer. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
