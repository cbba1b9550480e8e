import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '#server/testing/server-process';

const root = path.resolve(import.meta.dirname, '../..');
const scripts: Record<string, string> = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;

/** The words of a command that name a file of the project: a relative path with an extension. */
const filesNamedIn = (command: string) =>
  command.split(/[\s&|;]+/).filter((word) => /^(\.\/)?[\w.-]+(\/[\w.-]+)+\.(m?[jt]sx?|json)$/.test(word));

describe('package.json scripts', () => {
  it('start the server with the same Node.js flags as the systemd unit and the test servers (decision 091)', () => {
    const serverCommand = `node ${SERVER_NODE_FLAGS.join(' ')} dist-server/server.mjs`;
    expect(scripts.start).toContain(serverCommand);
    expect(scripts.serve).toContain(serverCommand);
    const unit = fs.readFileSync(path.join(root, 'docs/deploy/comando@.service'), 'utf8');
    expect(unit).toContain(`ExecStart=/usr/bin/${serverCommand}\n`);
    // Every script that starts the bundle passes the flags.
    for (const command of Object.values(scripts)) {
      for (const start of command.match(/node[^&|;\n]*dist-server\/server\.mjs/g) ?? [])
        expect(start).toContain(serverCommand.slice(5));
    }
  });

  it('name only files that exist', () => {
    const missing = Object.entries(scripts).flatMap(([name, command]) =>
      filesNamedIn(command)
        .filter((file) => !fs.existsSync(path.join(root, file)))
        .map((file) => `${name}: ${file}`),
    );
    expect(Object.keys(scripts).length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('db:migrate brings a new data folder up to date, then says it already is', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-migrate-'));
    try {
      const [, ...command] = scripts['db:migrate']?.split(' ') ?? [];
      expect(scripts['db:migrate']).toMatch(/^tsx /);
      const run = () =>
        spawnSync(process.execPath, ['--import', 'tsx', ...command], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir },
          encoding: 'utf8',
          timeout: 60_000,
        });
      const first = run();
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/^Migraciones aplicadas: 001-/);
      expect(fs.existsSync(path.join(dataDir, 'comando.sqlite'))).toBe(true);
      const again = run();
      expect(again.status).toBe(0);
      expect(again.stdout.trim()).toBe('La base de datos ya está al día.');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
