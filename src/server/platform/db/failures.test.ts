import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from '#server/platform/http/errors';
import { createTestApp } from '#server/testing/test-app';
import { isUnavailable, isUncertainCommit, isUniqueViolation, noteCommitFailure } from './failures';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('telling an unavailable database or disk from a bug', () => {
  it('knows SQLite’s, PostgreSQL’s and the system’s codes for it, also wrapped', () => {
    for (const error of [
      coded('SQLITE_FULL'),
      coded('SQLITE_IOERR_WRITE'),
      coded('SQLITE_BUSY'),
      coded('53100', 'could not extend file: No space left on device'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('08006'),
      coded('ECONNREFUSED'),
      coded('ENOSPC'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([coded('ECONNREFUSED')], 'connect failed'),
      new Error('the vote could not be saved', { cause: coded('SQLITE_FULL') }),
    ]) {
      expect(isUnavailable(error), String(error)).toBe(true);
    }
    for (const error of [
      coded('SQLITE_CONSTRAINT_UNIQUE'),
      coded('23505', 'duplicate key value'),
      coded('42P01', 'relation does not exist'),
      new TypeError('x is undefined'),
      'a string',
      undefined,
    ]) {
      expect(isUnavailable(error), String(error)).toBe(false);
    }
  });

  it('marks a COMMIT that lost its connection as maybe saved, and one the server refused as not', () => {
    const lost = new Error('Connection terminated unexpectedly');
    noteCommitFailure(lost);
    expect(isUncertainCommit(lost)).toBe(true);
    const refused = coded('53100', 'could not extend file');
    noteCommitFailure(refused);
    expect(isUncertainCommit(refused)).toBe(false);
  });

  it('answers 503 with Retry-After in Spanish, worded for reads, writes and maybe-saved commits', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    const lost = new Error('Connection terminated unexpectedly');
    noteCommitFailure(lost);
    app.get('/leer', async () => {
      throw coded('SQLITE_IOERR_READ');
    });
    app.post('/guardar', async () => {
      throw coded('ENOSPC');
    });
    app.post('/confirmar', async () => {
      throw lost;
    });
    app.get('/fallo', async () => {
      throw new TypeError('x is undefined');
    });
    const read = await app.inject({ url: '/leer' });
    expect([read.statusCode, read.headers['retry-after']]).toEqual([503, '10']);
    expect(read.json().message).toMatch(/^El servidor no puede leer sus datos en este momento/);
    const write = await app.inject({ method: 'POST', url: '/guardar' });
    expect(write.statusCode).toBe(503);
    expect(write.json().message).toMatch(/No se guardó nada: intenta de nuevo en unos segundos\.$/);
    const commit = await app.inject({ method: 'POST', url: '/confirmar' });
    expect(commit.statusCode).toBe(503);
    expect(commit.json().message).toMatch(/puede que se haya guardado o no/);
    const bug = await app.inject({ url: '/fallo' });
    expect(bug.statusCode).toBe(500);
    expect(bug.headers['retry-after']).toBeUndefined();
    await app.close();
  });
});

describe('telling a unique constraint from other refusals', () => {
  it('knows SQLite’s and PostgreSQL’s codes for it, also wrapped, and nothing else', () => {
    expect(isUniqueViolation(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBe(true);
    expect(isUniqueViolation(coded('SQLITE_CONSTRAINT_PRIMARYKEY'))).toBe(true);
    expect(isUniqueViolation(coded('23505'))).toBe(true);
    expect(isUniqueViolation(new Error('insert failed', { cause: coded('23505') }))).toBe(true);
    for (const error of [coded('SQLITE_CONSTRAINT_FOREIGNKEY'), coded('23503'), coded('SQLITE_FULL'), new Error('x')]) {
      expect(isUniqueViolation(error)).toBe(false);
    }
  });

  it('recognises what the database really throws for a repeated slug', async () => {
    const t = await createTestApp();
    try {
      const again = t.db.kysely
        .insertInto('departments')
        .values({
          slug: 'cabimas',
          title: 'Otra',
          kind: 'municipality',
          position: 99,
          created_at: new Date().toISOString(),
        })
        .execute();
      const error = await again.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(error)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
