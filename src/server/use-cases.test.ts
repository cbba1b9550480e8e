import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const server = import.meta.dirname;

/** Every file under `dir` (relative to src/server) whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  return fs
    .readdirSync(path.join(server, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => path.join(dir, file).split(path.sep).join('/'));
}

/**
 * The features whose writes are all use cases (docs/decisions/069): their route files only check, call
 * a use case and send. The list grows as the other features move to the same shape, until it is every
 * folder of src/server/features.
 */
const THIN_ROUTES = ['agenda', 'notas', 'candidates', 'settings', 'records', 'photos', 'records-admin', 'records-import'];

/** What only a use case (through the change helper) or a repository may do. */
const NOT_IN_A_ROUTE = [
  { what: 'a transaction', pattern: /\btransaction\(/ },
  { what: 'an audit row', pattern: /\bwriteAudit\(/ },
  { what: 'SQL', pattern: /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/ },
];

describe('where a change lives', () => {
  it('no route file of a feature that has moved to use cases opens a transaction, writes an audit row or SQL', () => {
    const routeFiles = filesUnder('features', '.routes.ts');
    const checked = routeFiles.filter((file) => THIN_ROUTES.includes(file.split('/')[1] ?? ''));
    // Every listed feature has route files: a renamed folder cannot silently drop out of the check.
    expect(new Set(checked.map((file) => file.split('/')[1]))).toEqual(new Set(THIN_ROUTES));
    const found = checked.flatMap((file) => {
      const text = fs.readFileSync(path.join(server, file), 'utf8');
      return NOT_IN_A_ROUTE.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${file}: ${what}`);
    });
    expect(found).toEqual([]);
  });

  it('no integration imports a feature repository: it calls the feature’s use cases', () => {
    // Their tests may build data through repositories; the integrations themselves may not.
    const files = filesUnder('integrations', '.ts').filter((file) => !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    const found = files.filter((file) =>
      /from '#server\/features\/[^']+\.repository'/.test(fs.readFileSync(path.join(server, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
