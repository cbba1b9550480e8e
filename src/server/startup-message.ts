// The plain block `npm start` ends its start-up with: where to open the app, the demo accounts when
// they were just created, and how to recover a password. Plain text for a person at a terminal; the
// logs stay JSON for machines.

/** The address a person opens: the public origin when set, else this machine at the port listened on. */
export function addressToOpen(config: { publicOrigin?: string; host: string }, port: number): string {
  if (config.publicOrigin) return config.publicOrigin;
  const anyOrLocal = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(config.host);
  const host = anyOrLocal ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

/**
 * The block itself. `demoLines` are what the demo announced as it created its accounts (a heading and
 * one line per account with its password); empty when nothing was created at this start.
 */
export function startupMessage({ address, demoLines }: { address: string; demoLines: string[] }): string {
  const lines = ['', 'Comando está listo.', '', `  Abre ${address}`];
  if (demoLines.length > 0) lines.push('', ...demoLines.map((line) => `  ${line}`));
  lines.push(
    '',
    '  ¿Una contraseña perdida? Se cambia desde esta máquina (y se cierran las sesiones de la cuenta):',
    '    npm run cli -- user:password <correo>',
    '',
    '  Cada petición se registra con LOG_LEVEL=debug; Ctrl+C detiene el servidor.',
    '',
  );
  return lines.join('\n');
}
