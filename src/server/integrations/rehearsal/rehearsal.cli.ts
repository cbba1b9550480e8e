// `npm run cli -- ensayo --url <servidor> …`: the rehearsal from the operator's machine (decision 103).
import fs from 'node:fs';
import path from 'node:path';
import { type RehearsalReport, runRehearsal, signInAdmin } from './rehearsal';
import { FIELD_LINK } from './rehearsal-http';
import { markdownReport, terminalReport } from './rehearsal-report';

export const REHEARSAL_HELP = `Ensayo general (contra un servidor, por su API; lo lanza una cuenta de administración)
  ensayo --url <servidor> [--telefonos 200] [--minutos 20] [--proyectores 200] [--sms 50]
         [--solo-lectura] [--correo <email>] [--informe <archivo.md>]
                                      Juega la jornada entera en Simulacro: cuentas de ensayo en los
                                      municipios, teléfonos con un enlace malo (256/1000 kbit/s, 300 ms,
                                      un corte cada 20 s), proyectores en vivo, SMS firmados (con
                                      SMS_WEBHOOK_SIGNING_KEY), Campo y Resultados leídos; el cierre con
                                      votos aún en los teléfonos, «Terminar simulacro», sus llegadas
                                      tardías y la comprobación de que todo queda como antes. Solo corre
                                      en Preparación sin votos ni fotos guardados (o --solo-lectura: solo
                                      lee). Con METRICS_TOKEN lee la memoria y el bucle de eventos.
                                      Ctrl+C detiene el ensayo y borra el simulacro igual.`;

const LIMITS = { telefonos: 1000, minutos: 120, proyectores: 5000, sms: 1000 } as const;

export interface RehearsalIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Asks a question at the keyboard (hidden for secrets) or reads the next line of standard input. */
  ask: (question: string, hidden: boolean) => Promise<string>;
  progress?: (line: string, final: boolean) => void;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Where the report goes when --informe is not given. */
  cwd?: string;
}

function flagValue(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at === -1) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`Falta el valor de ${name}.`);
  return value;
}

function count(argv: string[], name: keyof typeof LIMITS, fallback: number): number {
  const raw = flagValue(argv, `--${name}`);
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(',', '.'));
  const integer = name !== 'minutos';
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n)) || n > LIMITS[name]) {
    throw new Error(`--${name} debe ser un número entre 0 y ${LIMITS[name]}.`);
  }
  return n;
}

/** Runs the command; answers the exit code (0: every invariant held, 1: one did not or it could not run). */
export async function runRehearsalCommand(
  argv: string[],
  io: RehearsalIo,
): Promise<{ code: number; report?: RehearsalReport }> {
  const env = io.env ?? process.env;
  let options: { url: string; phones: number; minutes: number; projectors: number; sms: number; readOnly: boolean };
  let email: string | undefined;
  let reportFile: string | undefined;
  try {
    const url = flagValue(argv, '--url');
    if (!url) throw new Error('Indica el servidor: npm run cli -- ensayo --url https://comando.example.org');
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error('--url debe empezar por http:// o https://');
    options = {
      url: parsed.origin,
      phones: count(argv, 'telefonos', 200),
      minutes: count(argv, 'minutos', 20),
      projectors: count(argv, 'proyectores', 200),
      sms: count(argv, 'sms', 50),
      readOnly: argv.includes('--solo-lectura'),
    };
    if (!options.readOnly && options.phones < 1) throw new Error('--telefonos debe ser al menos 1.');
    email = flagValue(argv, '--correo');
    reportFile = flagValue(argv, '--informe');
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    io.err(REHEARSAL_HELP);
    return { code: 2 };
  }

  io.out(
    options.readOnly
      ? `Ensayo de solo lectura contra ${options.url}: ${options.projectors} proyectores y la lectura de Campo y Resultados durante ${options.minutes} min.`
      : `Ensayo general contra ${options.url}: ${options.phones} teléfonos, ${options.minutes} min, ${options.projectors} proyectores, ${options.sms} SMS. Pondrá la jornada en Simulacro y la dejará en Preparación, sin rastro salvo la auditoría.`,
  );
  const report = await runRehearsal({
    ...options,
    link: FIELD_LINK,
    smsSigningKey: env.SMS_WEBHOOK_SIGNING_KEY || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    signal: io.signal,
    out: io.out,
    progress: io.progress,
    signIn: async (admin) => {
      const who = email ?? (await io.ask('Correo de la cuenta de administración: ', false));
      const password = await io.ask('Contraseña: ', true);
      await signInAdmin(admin, { email: who.trim(), password }, () => io.ask('Código del segundo factor: ', true));
    },
  });
  for (const line of terminalReport(report)) io.out(line);
  if (report.refused) return { code: 1, report };
  const file = path.resolve(
    io.cwd ?? process.cwd(),
    reportFile ?? `ensayo-${report.startedAt.slice(0, 16).replace(/[:T]/g, '-')}.md`,
  );
  fs.writeFileSync(file, markdownReport(report));
  io.out(`Informe: ${file}`);
  return {
    code: report.verdicts.every((v) => v.ok) && report.notes.every((n) => !n.startsWith('No se pudo')) ? 0 : 1,
    report,
  };
}
