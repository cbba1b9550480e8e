import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname, '../..');

/**
 * Classes that draw text below 4.5:1 on the app's light backgrounds, whatever the state: opacity fades
 * the text with its box (a voted card at 60 % was about 2.9:1), light greys and see-through white too.
 * Disabled and busy states are drawn with solid colours instead (buttonClass, the vote card).
 */
const LOW_CONTRAST = [
  /\bopacity-(?:[0-8]\d|[1-9])\b/,
  /\btext-(?:stone|gray|zinc|neutral|slate)-(?:50|100|200|300|400)\b/,
  /\btext-white\/[0-7]\d\b/,
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('contrast', () => {
  it('no screen fades its text with opacity, light greys or see-through white', () => {
    const found: string[] = [];
    for (const file of sources(WEB)) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const pattern of LOW_CONTRAST) {
            const m = pattern.exec(line);
            if (m) found.push(`${path.relative(WEB, file)}:${i + 1} ${m[0]}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
