import crypto from 'node:crypto';
import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { BadRequest } from '#server/platform/http/errors';
import { createLimiter } from '#server/platform/lib/limiter';
import { NEW_PASSWORD_MIN_LENGTH, ONE_TIME_PASSWORD_HOURS } from '#shared/platform/constants';
import { isEmailShape, normalizeEmail } from '#shared/platform/email';
import { authMessages, isOneRepeatedCharacter, PASSWORD_MAX_LENGTH } from '#shared/platform/session';

// Argon2id is meant to cost CPU time and memory. More hashes at once than cores only makes each one
// slower (they fight over the cores and the cache): at 10 sign-ins at once, 4 running together served
// 150 a second with p99 84 ms, 2 at a time 190 a second. So they take turns, one per core.
const argon2Turns = createLimiter(Math.max(1, os.availableParallelism()));

/**
 * argon2id with 9 MiB and 4 passes: one of the settings OWASP's Password Storage Cheat Sheet lists as
 * giving the same defence as its 19 MiB × 2 baseline, and the one that runs fastest here (decision 016).
 */
export const ARGON2_OPTIONS = { memoryCost: 9216, timeCost: 4, parallelism: 1 } as const;
const ARGON2_PARAMS = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

/** A hash made with other settings (an older version's) is made again at the next good sign-in. */
export function needsRehash(passwordHash: string): boolean {
  return !passwordHash.startsWith(ARGON2_PARAMS);
}

export async function hashPassword(password: string): Promise<string> {
  return argon2Turns.run(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Turns.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

// Compared against when the e-mail is unknown, so that answer costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
/** Computes the stand-in hash ahead of time, so even the first unknown e-mail costs one hash, not two. */
export const getDummyHash = () => {
  dummyHash ??= hash(crypto.randomBytes(16).toString('hex'), ARGON2_OPTIONS);
  return dummyHash;
};

// No 0/o, 1/l/i: read aloud or copied by hand without mistakes.
const ONE_TIME_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A password made by the server for a new account or a reset: three groups of four characters
 * (about 59 bits), shown once to the admin who asked for it and stored only as a hash.
 */
export function generateOneTimePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 3; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += ONE_TIME_ALPHABET[crypto.randomInt(ONE_TIME_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** A one-time password opens nothing after this long (docs/decisions/063); the admin can make another. */
export const ONE_TIME_PASSWORD_MS = ONE_TIME_PASSWORD_HOURS * 60 * 60 * 1000;

/** Whether an account's one-time password has passed its expiry (never true for a person's own). */
export function oneTimePasswordExpired(
  user: { must_change_password: number; password_expires_at: string | null },
  now: Date,
): boolean {
  return (
    user.must_change_password === 1 &&
    user.password_expires_at !== null &&
    user.password_expires_at <= now.toISOString()
  );
}

// zxcvbn's list of the ~49,000 most used passwords (lowercase, from leaked password sets), shipped in
// the package: no network. Built into a set the first time a new password is checked.
let commonPasswords: Set<string> | undefined;

/** Whether a password is one of the most used ones (case and surrounding spaces do not matter). */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common']);
  return commonPasswords.has(password.trim().toLowerCase());
}

// zxcvbn's estimator with the same shipped dictionaries and the keyboard layouts (no network), made the
// first time a new password is checked.
let estimator: ZxcvbnFactory | undefined;

/**
 * zxcvbn's score, 0 (guessed at once) to 4. 0–1 is under about a million guesses (decision 092): a
 * series ('1234567890ab'), a keyboard row, a run of one character, a common word with a date.
 */
export function passwordScore(password: string): number {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return estimator.check(password).score;
}

/**
 * Every new password, whoever chooses it (the person, an admin, the command line): at least 10
 * characters, not one of the most used, not one character repeated, and not one zxcvbn scores 0–1
 * (decision 092). Signing in keeps the spec's 6 (loginBodySchema), so older, shorter passwords still
 * open their accounts.
 */
export function checkNewPassword(password: string): void {
  if (password.length < NEW_PASSWORD_MIN_LENGTH) throw BadRequest(authMessages.newPasswordTooShort);
  if (password.length > PASSWORD_MAX_LENGTH) throw BadRequest(authMessages.passwordTooLong);
  if (isCommonPassword(password)) throw BadRequest(authMessages.commonPassword);
  if (isOneRepeatedCharacter(password)) throw BadRequest(authMessages.repeatedCharacter);
  if (passwordScore(password) <= 1) throw BadRequest(authMessages.weakPassword);
}

export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!isEmailShape(normalized)) throw BadRequest(authMessages.invalidEmail);
  return normalized;
}
