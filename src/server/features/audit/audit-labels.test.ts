import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, auditTargetLabel } from '#shared/features/audit/audit';

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

describe('audit log in words', () => {
  it('has a Spanish label for every action the server writes', () => {
    const written = [...actionsWritten()];
    expect(written.length).toBeGreaterThan(30);
    expect(written.filter((action) => !(action in AUDIT_ACTION_LABELS))).toEqual([]);
    for (const label of Object.values(AUDIT_ACTION_LABELS)) expect(label).not.toMatch(/^[a-z]+\.[a-z_.]+$/);
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
