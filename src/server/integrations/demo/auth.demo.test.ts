import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { DEMO_ACCOUNTS } from './auth.demo';
import { loadDemoData } from './demo';

let t: TestApp;
afterEach(async () => t?.close());

describe('demo accounts', () => {
  it('creates an admin and two validators with random passwords, announced once and usable', async () => {
    t = await createTestApp();
    const lines: string[] = [];
    expect(await loadDemoData(t.db, new Date(), (l) => lines.push(l))).toBe(true);
    const passwords = new Map<string, string>();
    for (const line of lines) {
      const m = /^\s+(\S+@\S+)\s+(\S+)\s/.exec(line);
      if (m) passwords.set(m[1]!, m[2]!);
    }
    expect([...passwords.keys()]).toEqual(DEMO_ACCOUNTS.map((a) => a.email));
    expect(new Set(passwords.values()).size).toBe(3);

    const menus: Record<string, string[]> = {};
    for (const [email, password] of passwords) {
      const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      expect(res.statusCode).toBe(200);
      menus[email] = res.json().menu.map((m: { path: string }) => m.path);
    }
    expect(menus).toEqual({
      'admin@comando.example': ['/resultados', '/notas', '/agenda', '/revision', '/admin'],
      'validador.maracaibo@comando.example': ['/validation/coquivacoa', '/validation/cristo-de-aranza'],
      'validador.cabimas@comando.example': ['/validation/cabimas'],
    });

    // Nowhere else: not in the database in clear, not announced again.
    const rows = await t.db.kysely.selectFrom('users').select('password_hash').execute();
    for (const p of passwords.values()) expect(JSON.stringify(rows)).not.toContain(p);
    const again: string[] = [];
    await loadDemoData(t.db, new Date(), (l) => again.push(l));
    expect(again).toEqual([]);
  });
});
