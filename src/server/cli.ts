// Operator's command line: `npm run cli -- <orden> [argumentos]`. Passwords are read from the keyboard
// (hidden) or from standard input, never from an argument that would stay in the shell's history.
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { EVIDENCE_HELP, runAuditVerify, runEvidenceVerify } from '#server/features/evidence/evidence.cli';
import { createAccountsService, FIREBASE_PASSWORDS } from '#server/features/people/accounts.service';
import { createRecordsPurgeService, purgeLeftovers } from '#server/features/records-admin/records-purge.service';
import { runResultsCheck } from '#server/features/results/results.cli';
import { AIRTABLE_HELP, runAirtableCommand } from '#server/integrations/airtable/airtable.cli';
import { BACKUP_HELP, restoreBackup, restoreFromReplicaCommand, takeBackup } from '#server/integrations/backup/backup';
import { REHEARSAL_HELP, runRehearsalCommand } from '#server/integrations/rehearsal/rehearsal.cli';
import { runStorageMigrate, STORAGE_HELP } from '#server/integrations/storage-migrate/storage-migrate.cli';
import { runStorageCheck, STORAGE_CHECK_HELP } from '#server/integrations/storage-migrate/storage-sweep';
import { createAccessRepository } from '#server/platform/access/access.repository';
import { listDepartmentEmails } from '#server/platform/access/access.service';
import { ConfigError, loadConfig } from '#server/platform/config/config';
import { BackupError } from '#server/platform/db/backup';
import { DatabaseStartupError, migrateToLatest, openDatabase } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { HttpError } from '#server/platform/http/errors';
import { keepNewFilesPrivate } from '#server/platform/lib/private-files';
import { ReplicaError } from '#server/platform/replica/litestream';
import type { Actor } from '#server/platform/session/identity';
import { loadSecondFactorKey } from '#server/platform/session/second-factor-key';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { countOf } from '#shared/platform/format';

const HELP = `Uso: npm run cli -- <orden> [argumentos]

Cuentas
  user:add <email> [--admin]          Crea una cuenta (de personal; --admin para administrador).
                                      La contraseña se pide por teclado o se lee de la entrada estándar
                                      (con AUTH_PROVIDER=firebase no se pide: la cuenta entra con Firebase).
  user:password <email>               Cambia la contraseña (igual que arriba) y cierra sus sesiones
                                      (con Firebase, las contraseñas se cambian en Firebase).
  user:disable <email>                Desactiva la cuenta y cierra sus sesiones.
  user:enable <email>                 Vuelve a activar la cuenta.
  user:role <email> <admin|staff>     Cambia el rol de la cuenta.
  user:list                           Lista las cuentas.
  user:sms-phones <email> [números…]  Fija los móviles desde los que la cuenta vota por SMS (0414-1234567,
                                      +584141234567…); sin números, se los quita todos.
  user:second-factor-reset <email>    Quita el segundo factor de la cuenta (teléfono perdido) y cierra
                                      sus sesiones; si se exige, configurará otro al entrar.

Acceso por departamento (las listas de correos de la especificación)
  access:grant <email> <departamento> Añade el correo a la lista del departamento.
  access:revoke <email> <departamento> Quita el correo de la lista.
  access:list <departamento>          Muestra los correos de un departamento.
  access:departments                  Lista los departamentos (resultados, notas, agenda y municipios).

Datos personales (tras la elección)
  records:purge --conservar-fotos|--borrar-fotos --confirmar
                                      Borra los datos personales: los nombres quedan en iniciales y los
                                      teléfonos se borran; las fotos de boletas se conservan o se borran.
                                      Los conteos y los resultados no cambian. No se puede deshacer.
                                      Las copias publicadas en Dropbox (archivo con el nombre y su enlace)
                                      se retiran siempre. Después, las importaciones se rechazan.
  records:new-day --confirmar         Empieza una jornada nueva tras el borrado: vuelve a permitir las
                                      importaciones (CSV y Airtable) de las listas de otra elección.

Resultados
  results:check                       Recuenta los totales desde los trámites y muestra cualquier diferencia
                                      con los contadores (sale con código 1 si hay alguna).

${EVIDENCE_HELP}

${BACKUP_HELP}

${AIRTABLE_HELP}

${STORAGE_HELP}
${STORAGE_CHECK_HELP}

${REHEARSAL_HELP}

Ejemplos
  npm run cli -- user:add jefa@example.org --admin
  printf '%s\\n' "$CLAVE" | npm run cli -- user:password jefa@example.org
  npm run cli -- access:grant ana@example.org cabimas
  npm run cli -- backup /srv/copias/comando-$(date +%F-%H%M)
  npm run cli -- restore --desde-replica
  AIRTABLE_TOKEN=pat… AIRTABLE_BASE_ID=app… npm run cli -- airtable:import
  npm run cli -- ensayo --url https://comando.example.org --telefonos 50 --minutos 10
`;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Reads a new password: hidden from the keyboard (asked twice) or the first line of stdin. */
  readPassword: () => Promise<string>;
}

/**
 * Runs one command against an open database. Returns the process exit code. `passwords`: who checks
 * them ('firebase': Firebase Auth, and no Comando password is ever asked).
 */
export async function runCli(
  argv: string[],
  db: Kysely<Database>,
  io: CliIo,
  now = () => new Date(),
  passwords: 'local' | 'firebase' = 'local',
): Promise<number> {
  const [command, ...rest] = argv;
  const flags = new Set(rest.filter((a) => a.startsWith('--')));
  const args = rest.filter((a) => !a.startsWith('--'));
  const actor: Actor = { email: `cli:${safeUsername()}`, ip: null };
  const auth = createAccountsService(db, now);
  const departments = createDepartmentsService(db, now);
  const need = (n: number, usage: string) => {
    if (args.length < n) throw new UsageError(`Faltan argumentos. Uso: npm run cli -- ${usage}`);
  };

  try {
    switch (command) {
      case 'user:add': {
        need(1, 'user:add <email> [--admin]');
        const password = passwords === 'firebase' ? null : await io.readPassword();
        const user = await auth.createUser(
          { email: args[0]!, password, role: flags.has('--admin') ? 'admin' : 'staff' },
          actor,
        );
        io.out(
          `Cuenta creada: ${user.email} (${user.role === 'admin' ? 'administrador' : 'personal'})` +
            (password === null ? '; entra con su cuenta de Firebase.' : '.'),
        );
        return 0;
      }
      case 'user:password': {
        need(1, 'user:password <email>');
        if (passwords === 'firebase') throw new UsageError(FIREBASE_PASSWORDS);
        const password = await io.readPassword();
        await auth.setPassword(args[0]!, password, actor);
        io.out(`Contraseña cambiada para ${args[0]!.toLowerCase()}; sus sesiones abiertas se cerraron.`);
        return 0;
      }
      case 'user:disable':
      case 'user:enable': {
        need(1, `${command} <email>`);
        const disable = command === 'user:disable';
        await auth.setDisabled(args[0]!, disable, actor);
        io.out(
          disable
            ? `Cuenta desactivada: ${args[0]!.toLowerCase()}; sus sesiones abiertas se cerraron.`
            : `Cuenta activada: ${args[0]!.toLowerCase()}.`,
        );
        return 0;
      }
      case 'user:role': {
        need(2, 'user:role <email> <admin|staff>');
        const role = args[1];
        if (role !== 'admin' && role !== 'staff') throw new UsageError('El rol debe ser admin o staff.');
        await auth.setRole(args[0]!, role, actor);
        io.out(`Rol de ${args[0]!.toLowerCase()}: ${role}.`);
        return 0;
      }
      case 'user:second-factor-reset': {
        need(1, 'user:second-factor-reset <email>');
        await auth.resetSecondFactor(args[0]!, actor);
        io.out(`Segundo factor quitado a ${args[0]!.toLowerCase()}; sus sesiones abiertas se cerraron.`);
        return 0;
      }
      case 'user:sms-phones': {
        need(1, 'user:sms-phones <email> [números…]');
        const phones = await auth.setSmsPhones(args[0]!, args.slice(1), actor);
        io.out(
          phones.length === 0
            ? `${args[0]!.toLowerCase()} ya no vota por SMS desde ningún número.`
            : `${args[0]!.toLowerCase()} vota por SMS desde: ${phones.join(', ')}.`,
        );
        return 0;
      }
      case 'user:list': {
        const users = await auth.listUsers();
        if (users.length === 0) {
          io.out('No hay cuentas. Crea la primera con: npm run cli -- user:add <email> --admin');
          return 0;
        }
        for (const u of users) {
          const state = u.disabled ? 'desactivada' : 'activa';
          const last = u.lastLoginAt ? `último acceso ${u.lastLoginAt}` : 'nunca ha entrado';
          io.out(`${u.email}\t${u.role}\t${state}\t${last}`);
        }
        return 0;
      }
      case 'access:grant':
      case 'access:revoke': {
        need(2, `${command} <email> <departamento>`);
        const [email, slug] = args as [string, string];
        if (command === 'access:grant') {
          const added = await departments.grantAccess(email, slug, actor);
          io.out(
            added ? `${email.toLowerCase()} puede abrir ${slug}.` : `${email.toLowerCase()} ya estaba en ${slug}.`,
          );
        } else {
          const removed = await departments.revokeAccess(email, slug, actor);
          io.out(
            removed
              ? `${email.toLowerCase()} ya no puede abrir ${slug}.`
              : `${email.toLowerCase()} no estaba en ${slug}.`,
          );
        }
        return 0;
      }
      case 'access:list': {
        need(1, 'access:list <departamento>');
        const emails = await listDepartmentEmails(db, args[0]!);
        if (emails.length === 0) io.out(`La lista de ${args[0]} está vacía.`);
        for (const e of emails) io.out(e);
        return 0;
      }
      case 'access:departments': {
        for (const d of await createAccessRepository(db).listDepartmentsWithMembers()) {
          io.out(`${d.slug}\t${d.kind === 'page' ? 'página' : 'municipio'}\t${d.title}\t${d.emails.length} correos`);
        }
        return 0;
      }
      case 'records:purge': {
        const keep = flags.has('--conservar-fotos');
        const remove = flags.has('--borrar-fotos');
        if (keep === remove) throw new UsageError('Indica --conservar-fotos o --borrar-fotos.');
        if (!flags.has('--confirmar')) {
          throw new UsageError(
            'Esto no se puede deshacer. Repite la orden con --confirmar para borrar los datos personales.',
          );
        }
        // The storage is needed either way: its published copies (Dropbox) carry the names (decision 093).
        const storage = createPhotoStorage(loadConfig());
        const done = await createRecordsPurgeService(db, now, { storage }).purge(
          { photos: remove ? 'remove' : 'keep' },
          actor,
        );
        io.out(
          `Datos personales borrados de ${countOf(done.records, 'trámite', 'trámites')}` +
            (remove
              ? `; archivos de fotos borrados: ${done.photoFilesRemoved} de ${done.photoFiles}.`
              : '; las fotos se conservan.'),
        );
        for (const problem of purgeLeftovers(done)) io.err(problem);
        return purgeLeftovers(done).length > 0 ? 1 : 0;
      }
      case 'records:new-day': {
        if (!flags.has('--confirmar')) {
          throw new UsageError(
            'Una jornada nueva vuelve a permitir importaciones tras el borrado de datos personales. Repite la orden con --confirmar.',
          );
        }
        const started = await createRecordsPurgeService(db, now).startNewDay(actor);
        io.out(
          started.purges > 0
            ? 'Jornada nueva: las importaciones (CSV y Airtable) vuelven a estar permitidas.'
            : 'No hay un borrado de datos personales pendiente: las importaciones ya estaban permitidas.',
        );
        return 0;
      }
      case 'results:check':
        return await runResultsCheck(db, io);
      case 'audit:verify':
        return await runAuditVerify(db, createPhotoStorage(loadConfig()), io);
      case 'evidence:verify':
        need(1, 'evidence:verify <paquete.zip>');
        return await runEvidenceVerify(args[0] as string, io);
      case 'airtable:import':
      case 'airtable:push':
        return await runAirtableCommand(command, rest, db, io, now);
      case 'storage:migrate':
        return await runStorageMigrate(rest, db, io, now);
      case 'storage:check':
        return await runStorageCheck(rest, db, loadConfig(), io, now);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(HELP);
        return 0;
      default:
        io.err(`Orden desconocida: ${command}\n`);
        io.err(HELP);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof HttpError) {
      io.err(error.message);
      return error instanceof UsageError ? 2 : 1;
    }
    throw error;
  }
}

class UsageError extends Error {}

function safeUsername(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'desconocido';
  }
}

/** Reads one line from the keyboard without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let value = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stdout.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('Cancelado.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readFirstLineOfStdin(): Promise<string> {
  let data = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) data += chunk;
  return (data.split(/\r?\n/)[0] ?? '').replace(/\r$/, '');
}

async function readPasswordFromTerminalOrStdin(): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLineOfStdin();
  const first = await promptHidden('Contraseña nueva: ');
  const second = await promptHidden('Repite la contraseña: ');
  if (first !== second) throw new UsageError('Las contraseñas no coinciden.');
  return first;
}

/** A line typed at the keyboard (shown), or the next line of standard input. */
function promptLine(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stdout.write(question);
    process.stdin.resume();
    process.stdin.setEncoding('utf8');
    let value = '';
    const onData = (chunk: string) => {
      value += chunk;
      const end = value.search(/\r?\n/);
      if (end === -1) return;
      process.stdin.removeListener('data', onData);
      process.stdin.pause();
      resolve(value.slice(0, end));
    };
    process.stdin.on('data', onData);
  });
}

/**
 * The rehearsal (decision 103) runs from any machine against a server's URL: it needs no configuration or
 * database here. Ctrl+C stops the day and still erases the drill; a third one leaves at once.
 */
async function rehearse(argv: string[]): Promise<number> {
  const stop = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts === 1) {
      console.error('\nDeteniendo el ensayo: se termina y se borra el simulacro…');
      stop.abort();
    } else if (interrupts === 2) {
      console.error('\nEspera: se está borrando el simulacro. Otro Ctrl+C sale sin borrarlo (termínalo en Jornada).');
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', onInterrupt);
  let piped: string[] | undefined;
  const tty = process.stdout.isTTY === true;
  let lastShown = 0;
  try {
    const { code } = await runRehearsalCommand(argv, {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
      async ask(question, hidden) {
        if (process.stdin.isTTY) {
          const answer = hidden ? await promptHidden(question) : await promptLine(question);
          // Raw mode takes Ctrl+C as a key: the signal is back once the question is answered.
          return answer;
        }
        piped ??= (await readAllOfStdin()).split(/\r?\n/);
        return piped.shift() ?? '';
      },
      progress(line, final) {
        if (tty) process.stdout.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
        else if (final || Date.now() - lastShown > 15_000) {
          lastShown = Date.now();
          console.log(line);
        }
      },
      signal: stop.signal,
    });
    return code;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

async function readAllOfStdin(): Promise<string> {
  let data = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) data += chunk;
  return data;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'ensayo') {
    process.exitCode = await rehearse(argv.slice(1));
    return;
  }
  // Backups, a restored database, a new data folder: their user's only (decision 092).
  keepNewFilesPrivate();
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0]!)) {
    console.log(HELP);
    return;
  }
  const config = loadConfig();
  // A backup reads the database through its own connection; a restore needs the target empty, so
  // neither opens (nor migrates) it here.
  if (argv[0] === 'restore' && argv.includes('--desde-replica')) {
    process.exitCode = await restoreFromReplicaCommand(config, (line) => console.log(line), {
      secondFactorKey: () => loadSecondFactorKey(config),
    });
    return;
  }
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    const folder = argv[1];
    if (!folder) throw new UsageError(`Falta la carpeta. Uso: npm run cli -- ${argv[0]} <carpeta>`);
    const out = (line: string) => console.log(line);
    if (argv[0] === 'backup') await takeBackup(config, path.resolve(folder), out, config.now);
    else process.exitCode = (await restoreBackup(config, path.resolve(folder), out)).length > 0 ? 1 : 0;
    return;
  }
  const db = await openDatabase({ ...config, litestream: config.replica !== undefined });
  try {
    // The same key as the server's (decision 086), loaded only if the migration has secrets to seal.
    await migrateToLatest(db, { secondFactorKey: () => loadSecondFactorKey(config) });
    await seedReferenceData(db, config.now(), config.campaignName);
    process.exitCode = await runCli(
      argv,
      db.kysely,
      { out: (l) => console.log(l), err: (l) => console.error(l), readPassword: readPasswordFromTerminalOrStdin },
      config.now,
      config.auth.provider,
    );
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    if (
      error instanceof ConfigError ||
      error instanceof DatabaseStartupError ||
      error instanceof UsageError ||
      error instanceof BackupError ||
      error instanceof ReplicaError
    ) {
      console.error(error.message);
    } else {
      console.error('Error inesperado:', error instanceof Error ? error.message : error);
    }
    process.exitCode = 1;
  });
}
