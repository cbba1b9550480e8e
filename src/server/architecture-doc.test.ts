import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md declares; the repository is scanned to check it. Its lists are the expectations, so
 * when the code moves, the doc is what changes (and this test says how).
 */
const root = path.resolve(import.meta.dirname, '../..');
const doc = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');

/** Every `…` span of a text. */
const codeSpans = (text: string): string[] => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');

/** A path of the repository as the doc writes it: from one of its top folders, without patterns. */
const REPO_PATH = /^(src|tests|scripts|docs)\/[\w./@-]*$/;

/** The bullet of the doc whose bold label starts with `label`, with its continuation lines. */
function bullet(label: string): string {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`- **${label}`));
  if (start === -1) throw new Error(`docs/ARCHITECTURE.md has no bullet "${label}"`);
  const body = [lines[start] ?? ''];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    body.push(line);
  }
  return body.join('\n');
}

/** The paths a bullet names (folders end with a slash and stand for everything under them). */
const pathsOf = (text: string) => codeSpans(text).filter((span) => REPO_PATH.test(span));

/** Every source file under these top folders, relative to the repository, with forward slashes. */
function sourceFiles(...tops: string[]): string[] {
  return tops.flatMap((top) =>
    fs
      .readdirSync(path.join(root, top), { recursive: true, encoding: 'utf8' })
      .map((file) => `${top}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.(ts|tsx|mts|mjs)$/.test(file) && !file.includes('node_modules/')),
  );
}

const isTest = (file: string) => /\.(test|spec)\.(ts|tsx)$/.test(file) || file.startsWith('tests/');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Whether a declared list entry (a file, or a folder ending with '/') covers a file. */
const covers = (entry: string, file: string) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry);

function expectSameFiles(declared: string[], scanned: string[]) {
  const missing = scanned.filter((file) => !declared.some((entry) => covers(entry, file)));
  const stale = declared.filter((entry) => !scanned.some((file) => covers(entry, file)));
  expect({ notInTheDoc: missing, inTheDocOnly: stale }).toEqual({ notInTheDoc: [], inTheDocOnly: [] });
}

describe('docs/ARCHITECTURE.md', () => {
  const named = [...new Set(pathsOf(doc))];

  it('names paths', () => {
    expect(named.length).toBeGreaterThan(20);
  });

  it.each(named)('names %s, which exists', (name) => {
    expect(fs.existsSync(path.join(root, name))).toBe(true);
  });

  it('stays one page', () => {
    expect(doc.split('\n').length).toBeLessThanOrEqual(90);
  });

  it('points only at decisions that hold (none superseded)', () => {
    const named = [...doc.matchAll(/decisions?\s+((?:\d{3}(?:,\s*|\s+and\s+)?)+)/g)].flatMap((m) =>
      [...(m[1] ?? '').matchAll(/\d{3}/g)].map((n) => n[0]),
    );
    expect(named.length).toBeGreaterThan(5);
    const decisions = fs.readdirSync(path.join(root, 'docs/decisions'));
    const statusOf = (number: string) => {
      const file = decisions.find((name) => name.startsWith(`${number}-`));
      if (!file) return 'missing';
      const status = /^Status: (.*)$/m.exec(read(`docs/decisions/${file}`))?.[1] ?? 'no status';
      return status.startsWith('accepted') ? 'accepted' : status;
    };
    expect(Object.fromEntries(named.map((n) => [n, statusOf(n)]))).toEqual(
      Object.fromEntries(named.map((n) => [n, 'accepted'])),
    );
  });

  it('lists every file, tests aside, that imports src/server/testing', () => {
    const declared = pathsOf(bullet('Files that import src/server/testing')).filter((p) => !p.endsWith('/'));
    const specifier = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
    const importsTesting = (file: string) =>
      [...read(file).matchAll(specifier)].some(({ 1: spec = '' }) => {
        if (spec.startsWith('#server/testing')) return true;
        if (!spec.startsWith('.')) return false;
        const target = path.relative(root, path.resolve(path.dirname(path.join(root, file)), spec));
        return target.split(path.sep).join('/').startsWith('src/server/testing');
      });
    const scanned = sourceFiles('src', 'scripts', 'tests').filter(
      (file) => !isTest(file) && !file.startsWith('src/server/testing/') && importsTesting(file),
    );
    expectSameFiles(declared, scanned);
  });

  it('lists every file, tests aside, with SQL outside the repositories and the kernel', () => {
    const declared = pathsOf(bullet('SQL outside repositories and core'));
    const query = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^`\n]*>)?`/;
    const scanned = sourceFiles('src', 'scripts').filter(
      (file) =>
        !isTest(file) &&
        !file.endsWith('.repository.ts') &&
        !file.startsWith('src/server/core/') &&
        query.test(read(file)),
    );
    expectSameFiles(declared, scanned);
  });
});
