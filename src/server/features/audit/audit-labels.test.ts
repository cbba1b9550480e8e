import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_DETAIL_LABELS,
  auditDetailValue,
  auditQuerySchema,
  auditTargetLabel,
} from '#shared/features/audit/audit';

const SERVER = path.resolve(import.meta.dirname, '../..');

/** Every action code the server's code writes: the literals on lines that name an action or an audit row. */
function actionsWritten(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !file.includes('/testing/')) {
        for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
          if (!/action|audit\(/.test(line)) continue;
          for (const m of line.matchAll(/'([a-z]+\.[a-z_.]+)'/g)) found.add(m[1] as string);
        }
      }
    }
  };
  walk(SERVER);
  return found;
}

/** The server's source files (not tests, not test helpers). */
function serverSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !file.includes('/testing/')) {
        files.push(file);
      }
    }
  };
  walk(SERVER);
  return files;
}

/** The text of the object literal whose `{` is at `open`, nested ones included. */
function objectAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/**
 * Every key the server's code writes into an audit row's details: the keys of the object literals given
 * as `details`, as a failed sign-in's details, and built by the helpers that make them; the changes a
 * candidate's edit lists; and the audit export's filters (its details are the query).
 */
function detailKeysWritten(): Set<string> {
  const found = new Set<string>(Object.keys(auditQuerySchema.shape));
  const starts = /details: \{|recordFailure\([^;{)]*\{|(?:fieldsOf|auditDetails) = \([^)]*\) => \(\{/g;
  for (const file of serverSources()) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(starts)) {
      const literal = objectAt(text, (m.index ?? 0) + m[0].length - 1);
      // `key:` and shorthand `key,` / `key }` (a spread's name is not a key).
      for (const k of literal.matchAll(/(?<![.\w])(\w+)\s*:(?!:)/g)) found.add(k[1] as string);
      for (const k of literal.matchAll(/[{,]\s*(\w+)\s*(?=[,}])/g)) found.add(k[1] as string);
    }
    for (const k of text.matchAll(/changes\.(\w+) =/g)) found.add(k[1] as string);
  }
  return found;
}

describe('audit log in words', () => {
  it('has a Spanish label for every action the server writes', () => {
    const written = [...actionsWritten()];
    expect(written.length).toBeGreaterThan(30);
    expect(written.filter((action) => !(action in AUDIT_ACTION_LABELS))).toEqual([]);
    for (const label of Object.values(AUDIT_ACTION_LABELS)) expect(label).not.toMatch(/^[a-z]+\.[a-z_.]+$/);
  });

  it('has a Spanish label for every key of the details the server writes', () => {
    const written = [...detailKeysWritten()];
    expect(written).toEqual(
      expect.arrayContaining(['before', 'after', 'reason', 'votedBy', 'voteCounts', 'duplicatesInFile']),
    );
    expect(written.filter((key) => !(key in AUDIT_DETAIL_LABELS))).toEqual([]);
  });

  it.each([
    ['voteCounts', true, 'Sí'],
    ['candidates', [], 'ninguno'],
    ['candidates', ['FA', 'NR'], 'FA, NR'],
    ['bytes', 8123456, '8.123.456'],
    ['photoId', 1234, '1234'],
    ['reason', 'wrong_password', 'contraseña equivocada'],
    ['votedBy', null, '—'],
  ])('writes %s = %j as "%s"', (key, value, words) => {
    expect(auditDetailValue(key, value)).toBe(words);
  });

  it.each([
    ['record.vote', 'record:902', 'Trámite 902'],
    ['nota.publish', 'nota:5', 'Nota 5'],
    ['agenda.update', 'agenda:12', 'Evento de agenda 12'],
    ['agenda.copy', 'agenda:2026-11-20>2026-11-21', 'Agenda del 20/11/2026 al 21/11/2026'],
    ['user.create', 'ana@example.org', 'Persona ana@example.org'],
    ['candidate.update', 'FA', 'Candidato FA'],
    ['setting.update', 'results_denominator', 'Ajuste: Denominador de resultados'],
    ['department.update', 'coquivacoa', 'Departamento Coquivacoa'],
    ['results.download', 'validated.csv', 'Archivo validated.csv'],
    ['airtable.import', 'airtable:appABC', 'Base de Airtable appABC'],
  ])('%s on %s reads "%s"', (action, target, words) => {
    expect(auditTargetLabel(action, target, (slug) => (slug === 'coquivacoa' ? 'Coquivacoa' : undefined))).toBe(words);
  });
});
