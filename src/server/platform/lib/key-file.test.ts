import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFileContents } from './key-file';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('keyFileContents', () => {
  it('makes the key once, readable by its owner only, and reads it back afterwards', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-key-'));
    const file = path.join(dir, 'claves', 'clave.pem');
    let made = 0;
    const make = () => `clave ${++made}\n`;
    expect(keyFileContents(file, make).toString()).toBe('clave 1\n');
    expect(keyFileContents(file, make).toString()).toBe('clave 1\n');
    expect(made).toBe(1);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Only the key remains: no draft is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['clave.pem']);
  });

  it('keeps the key another instance linked into place first, and leaves no draft', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-key-'));
    const file = path.join(dir, 'clave.pem');
    // The other instance links its key while this one is writing its own draft.
    const contents = keyFileContents(file, () => {
      fs.writeFileSync(file, 'la primera\n', { mode: 0o600 });
      return 'la segunda\n';
    });
    expect(contents.toString()).toBe('la primera\n');
    expect(fs.readdirSync(dir)).toEqual(['clave.pem']);
  });
});
