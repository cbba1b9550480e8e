import fs from 'node:fs';
import fsp from 'node:fs/promises';

/**
 * What the server writes holds people's names, phones and votes: its folders are its user's only
 * (700), and so are its files (600), whatever the umask (decision 092). A mode given at creation can
 * only be narrowed by the umask, never widened.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any folder above it that is missing, each 700 (one that exists is left as it is). */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export async function makePrivateDirAsync(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates `file` empty with mode 600 when it is missing, for a writer that creates files with wider modes
 * of its own (SQLite, pg_dump): they keep the mode of a file that exists, and SQLite gives its -wal and
 * -shm files the mode of the database.
 */
export function makePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
}

/**
 * The server's and the command line's umask: whatever they or a tool they run (pg_dump, the upload
 * store) create is their user's only.
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}
