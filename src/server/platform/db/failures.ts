/**
 * Which errors mean that something the server depends on cannot be used right now (the database, the
 * disk, a storage service), as opposed to a bug: they are answered 503 with Retry-After, and the request
 * changed nothing. Recognised by their codes only, never by guessing.
 */

// SQLite: disk full, I/O error, locked past busy_timeout, cannot open, read-only, out of memory.
const SQLITE = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|CANTOPEN|READONLY|NOMEM|PROTOCOL)/;
// PostgreSQL SQLSTATE classes: 08 connection exception, 53 insufficient resources (disk full, out of
// memory, too many connections), 58 system error (I/O); 57P01-03 shut down or starting; 25006 read-only.
const POSTGRES = /^(08|53|58)[0-9A-Z]{3}$|^57P0[123]$|^25006$/;
// Connections refused, reset or timed out.
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// The disk full, failing, read-only or over quota; no file handles left.
const DISK = new Set(['ENOSPC', 'EIO', 'EROFS', 'EDQUOT', 'EMFILE', 'ENFILE']);
// node-postgres says these in words only.
const PG_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout)/;

function causes(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const walk = (e: unknown) => {
    if (!e || typeof e !== 'object' || seen.includes(e) || seen.length > 10) return;
    seen.push(e);
    walk((e as { cause?: unknown }).cause);
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) walk(inner);
  };
  walk(error);
  return seen;
}

/** A connection to the database broke or could not be made (no answer from the server at all). */
export function isConnectionLoss(error: unknown): boolean {
  return causes(error).some(connectionLost);
}

function connectionLost(e: unknown): boolean {
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK.has(code) || /^08/.test(code))) return true;
  return typeof message === 'string' && PG_CONNECTION.test(message);
}

/** Whether this error (or one it wraps) says the database or storage is unavailable now. */
export function isUnavailable(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (SQLITE.test(code) || POSTGRES.test(code) || DISK.has(code))) return true;
    return connectionLost(e);
  });
}

const uncertain = new WeakSet<object>();

/**
 * Marks an error thrown by COMMIT when the connection was lost without an answer: the database may
 * have committed or not. (A COMMIT the server refused, with a SQLSTATE, committed nothing.)
 */
export function noteCommitFailure(error: unknown): void {
  if (error && typeof error === 'object' && isConnectionLoss(error)) uncertain.add(error);
}

/** Whether the change may have been saved although the request failed (see noteCommitFailure). */
export function isUncertainCommit(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && uncertain.has(error));
}

/**
 * A write refused by a unique constraint (SQLite's SQLITE_CONSTRAINT_UNIQUE or PRIMARYKEY, PostgreSQL's
 * 23505): two requests that wanted the same name at the same time, the second told apart from a bug.
 */
export function isUniqueViolation(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
  });
}
