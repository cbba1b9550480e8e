import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const server = import.meta.dirname;

/** Every file under `dir` (relative to src/server) whose name ends with `suffix`, tests left out. */
function filesUnder(dir: string, suffix: string): string[] {
  return fs
    .readdirSync(path.join(server, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix) && !file.endsWith('.test.ts'))
    .map((file) => path.join(dir, file).split(path.sep).join('/'));
}

const read = (file: string) => fs.readFileSync(path.join(server, file), 'utf8');

/** Every route file: the features' and the server's own (the back office's plugin). */
const routeFiles = [
  ...filesUnder('features', '.routes.ts'),
  ...fs.readdirSync(server).filter((file) => file.endsWith('.routes.ts')),
];

/*
 * The composition root (docs/decisions/105): compose.ts builds every service, storage, gateway and guard
 * once and app.ts hands them to the plugins. A route file validates, guards, calls and sends.
 */
describe('one composition root', () => {
  it('finds the route files it checks', () => {
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(routeFiles).toContain('admin.routes.ts');
  });

  it('no route file builds a repository: its reads go through a service built in compose.ts', () => {
    const found = routeFiles.filter((file) => /\bcreate\w*Repository\(/.test(read(file)));
    expect(found).toEqual([]);
  });

  it('no route file builds a service, a storage, an image pipeline or the phones’ kept answers', () => {
    const built = /\bcreate\w*(Service|Storage|Pipeline|IdempotencyKeys|Uploads)\(|\bservicesOf\(|\bServiceOf\(/;
    const found = routeFiles.filter((file) => built.test(read(file)));
    expect(found).toEqual([]);
  });

  it('builds the photo storage in one place of the server: app.ts', () => {
    // The command line and the Airtable import run in processes of their own, with their own storage.
    const own = new Set(['cli.ts', 'integrations/airtable/airtable.cli.ts']);
    const files = filesUnder('.', '.ts').filter((file) => !file.startsWith('testing/') && !own.has(file));
    const builders = files.filter(
      (file) => file !== 'platform/storage/create-photo-storage.ts' && /\bcreatePhotoStorage\(/.test(read(file)),
    );
    expect(builders).toEqual(['app.ts']);
    expect(read('app.ts').match(/\bcreatePhotoStorage\(/g)).toHaveLength(1);
  });

  it('keeps the guards in platform/access: no route file declares one of its own', () => {
    const found = routeFiles.filter((file) => /\b(async )?function require\w+\(/.test(read(file)));
    expect(found).toEqual([]);
    const guards = read('platform/access/guards.ts');
    expect(guards).toMatch(/export function requireUser\(/);
    expect(guards).toMatch(/export function requireAdmin\(/);
  });

  it('checks an admin once: the plugins under /api/admin and those with their own admin hook do not check again', () => {
    // admin.routes.ts's onRequest hook guards these plugins: their handlers never call requireAdmin.
    const underTheAdminPrefix = [
      'features/audit/audit.routes.ts',
      'features/departments/departments.routes.ts',
      'features/candidates/candidates.routes.ts',
      'features/evidence/evidence.routes.ts',
      'features/election/election.routes.ts',
      'features/people/people.routes.ts',
      'features/settings/settings.admin.routes.ts',
    ];
    const admin = read('admin.routes.ts');
    expect(admin.match(/\brequireAdmin\(/g)).toHaveLength(1);
    const repeated = underTheAdminPrefix.filter((file) => /\brequireAdmin\(/.test(read(file)));
    expect(repeated).toEqual([]);
    // These two guard themselves in one onRequest hook, and nowhere else.
    for (const file of [
      'features/records-admin/records-admin.routes.ts',
      'features/records-import/records-import.routes.ts',
    ]) {
      expect(read(file).match(/\brequireAdmin\(/g), file).toHaveLength(1);
    }
  });
});
