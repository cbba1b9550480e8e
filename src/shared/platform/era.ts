import { z } from 'zod';

/**
 * The day's eras (decision 094): the server changes its era when a drill starts and when it ends; a phone
 * stamps the era it last heard of on every vote and photo it captures and sends it with each try, so that
 * an item made during a drill is never taken as real after it, whatever the server heard of it.
 */
export const ITEM_ERA_HEADER = 'comando-era';

export const eraIdSchema = z.uuid();

/** The era as the server tells phones: its id, and whether it is a drill's. */
export const eraSchema = z.object({ id: eraIdSchema, drill: z.boolean() });
export type Era = z.infer<typeof eraSchema>;

/** The headers of a vote or photo sent by a phone: its era, when it stamped one. */
export const itemEraHeadersSchema = z.object({ [ITEM_ERA_HEADER]: eraIdSchema.optional() });

/** A ballot's fingerprint, as a phone reports it and as the server compares it: its codes, in order. */
export const voteFingerprint = (codes: readonly string[]) => `vote:${[...new Set(codes)].sort().join(',')}`;

export const eraMessages = {
  /** What a validator's phone says when it learns the drill has ended and drops what it kept of it. */
  drillEnded: 'El simulacro terminó: tus votos de práctica se borraron',
} as const;
