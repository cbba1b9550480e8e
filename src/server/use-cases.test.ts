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
 * Every feature's writes are use cases (docs/decisions/069, 070, 072): their route files only check, call a
 * use case and send. The list is every folder of src/server/features, so a new feature is checked too.
 */
const THIN_ROUTES = fs
  .readdirSync(path.join(server, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What only a use case (through the change helper) or a repository may do. */
const NOT_IN_A_ROUTE = [
  { what: 'a transaction', pattern: /\btransaction\(/ },
  { what: 'an audit row', pattern: /\bwriteAudit\(/ },
  { what: 'SQL', pattern: /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/ },
];

describe('where a change lives', () => {
  it('no route file of a feature that has moved to use cases (nor the server’s own) opens a transaction, writes an audit row or SQL', () => {
    const routeFiles = filesUnder('features', '.routes.ts');
    const checked = routeFiles.filter((file) => THIN_ROUTES.includes(file.split('/')[1] ?? ''));
    // Every listed feature has route files: a renamed folder cannot silently drop out of the check.
    expect(new Set(checked.map((file) => file.split('/')[1]))).toEqual(new Set(THIN_ROUTES));
    // The server's own route files (the back office's plugin) too.
    const ownRoutes = fs.readdirSync(server).filter((file) => file.endsWith('.routes.ts'));
    expect(ownRoutes).toContain('admin.routes.ts');
    const found = [...checked, ...ownRoutes].flatMap((file) => {
      const text = fs.readFileSync(path.join(server, file), 'utf8');
      return NOT_IN_A_ROUTE.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${file}: ${what}`);
    });
    expect(found).toEqual([]);
  });

  it('writes audit rows only through the change helper', () => {
    // Every other file calls `change.audit` inside a change; the helper alone calls `writeAudit`.
    const files = filesUnder('.', '.ts').filter((file) => !file.endsWith('.test.ts') && !file.startsWith('testing/'));
    expect(files.length).toBeGreaterThan(100);
    const writers = files.filter((file) => /\bwriteAudit\(/.test(fs.readFileSync(path.join(server, file), 'utf8')));
    expect(writers.sort()).toEqual(['platform/audit/audit.repository.ts', 'platform/change/change.ts']);
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
