import { v4, v7 } from 'uuid';

/**
 * A random UUID (version 4), for ids that say nothing but "this one" (the phone's id for the field view).
 * The library draws from crypto.getRandomValues, which a phone reaching a test server by its LAN address
 * has too (crypto.randomUUID exists only on https and localhost).
 */
export function newUuid(): string {
  return v4();
}

/**
 * The Idempotency-Key of an item the phone will send: a UUID version 7 (RFC 9562), the time first and
 * then random bits. Keys made one after another sort one after another, so the server's index of keys
 * grows at its end instead of at a random page for each vote (decision 090).
 */
export function newItemKey(): string {
  return v7();
}
