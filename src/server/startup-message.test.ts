import { describe, expect, it } from 'vitest';
import { addressToOpen, startupMessage } from './startup-message';

const DEMO = [
  'Cuentas de demostración (las contraseñas se muestran solo esta vez):',
  '  admin@comando.example  abcd-efgh-jkmn-pqrs  (administrador)',
  '  validador.cabimas@comando.example  2345-6789-abcd-efgh  (validador de cabimas)',
];

describe('the start-up block', () => {
  it('says where to open the app, the demo accounts just created and how to recover a password, in plain lines', () => {
    const text = startupMessage({ address: 'http://localhost:3000', demoLines: DEMO });
    const lines = text.split('\n');
    expect(lines).toContain('  Abre http://localhost:3000');
    // Each demo line, indented under the address, in the order the demo gave them.
    const at = lines.indexOf(`  ${DEMO[0]}`);
    expect(at).toBeGreaterThan(lines.indexOf('  Abre http://localhost:3000'));
    expect(lines.slice(at, at + 3)).toEqual(DEMO.map((line) => `  ${line}`));
    expect(lines).toContain('    npm run cli -- user:password <correo>');
    expect(text).toContain('LOG_LEVEL=debug');
    // Short and for people: no JSON, a screen's worth at most.
    expect(text).not.toMatch(/[{}]/);
    expect(lines.length).toBeLessThanOrEqual(16);
  });

  it('has no demo section when no account was created at this start', () => {
    const text = startupMessage({ address: 'http://localhost:3000', demoLines: [] });
    expect(text).not.toContain('demostración');
    expect(text).toContain('Abre http://localhost:3000');
    expect(text).toContain('npm run cli -- user:password <correo>');
  });

  it('opens the public origin when there is one, else this machine at the port', () => {
    expect(addressToOpen({ host: '0.0.0.0' }, 3000)).toBe('http://localhost:3000');
    expect(addressToOpen({ host: '::' }, 6061)).toBe('http://localhost:6061');
    expect(addressToOpen({ host: '192.168.1.20' }, 3000)).toBe('http://192.168.1.20:3000');
    expect(addressToOpen({ host: 'fd00::5' }, 3000)).toBe('http://[fd00::5]:3000');
    expect(addressToOpen({ host: '0.0.0.0', publicOrigin: 'https://comando.example.org' }, 3000)).toBe(
      'https://comando.example.org',
    );
  });
});
