import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

/**
 * The hottest public reads are checked against their response schema and serialised once per cached
 * listing, then sent as a string. The listing object comes from a repository's short read cache, which
 * hands out the same object until it expires or a write clears it; keying a WeakMap on it makes the
 * serialised copy expire with it. `variant` covers what is computed per request on top of the listing
 * (the day, the leader's name): a different variant serialises again.
 */
export function createSerializedCache<Source extends object, Schema extends z.ZodType>(schema: Schema) {
  const cache = new WeakMap<Source, { variant: string; body: string }>();
  return (source: Source, variant: string, build: () => z.input<Schema>): string => {
    const hit = cache.get(source);
    if (hit && hit.variant === variant) return hit.body;
    const body = JSON.stringify(schema.parse(build()));
    cache.set(source, { variant, body });
    return body;
  };
}

/**
 * Sends JSON already checked against the route's response schema and serialised (above). Fastify sends
 * a JSON string as it is; the type provider only knows the schema's object type, hence the cast.
 */
export function sendSerialized(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body as never);
}
