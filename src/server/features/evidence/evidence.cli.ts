import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { countOf, formatCount } from '#shared/platform/format';
import { type ProblemKind, type VerifyReport, verifyAuditChain } from './audit-verify';
import { verifyEvidencePackage } from './evidence-verify';

export const EVIDENCE_HELP = `Cadena de auditoría y paquetes de evidencias
  audit:verify                        Recorre la cadena de auditoría y la compara con los votos y las fotos
                                      (también los bytes de cada archivo), cada trámite anulado, cada
                                      contador, los conteos de cada cierre y su sello de tiempo, y la fase de
                                      la jornada. Nombra el primer enlace roto, cada registro borrado o
                                      añadido y cada diferencia, con lo guardado y lo que da la cadena. Sale
                                      con código 0 solo si todo coincide.
  evidence:verify <paquete.zip>       Comprueba un paquete de evidencias: cada archivo contra SHA256SUMS, la
                                      firma de SHA256SUMS y el hash de cada fila de auditoría que trae.
                                      Sale con código 0 solo si todo coincide.`;

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The report as the command line prints it: the problems first, then the summary. */
export function printVerifyReport(report: VerifyReport, io: Io): void {
  const of = (...kinds: ProblemKind[]) => report.problems.filter((p) => kinds.includes(p.kind));
  const chain = of('chain');
  const records = of('vote', 'photo', 'record');
  const counters = of('counter');
  const day = of('close', 'election');
  if (chain.length > 0) {
    io.err(
      `Cadena: ${countOf(chain.length, 'problema', 'problemas')}; el primero, en el registro ${chain[0]?.seq ?? '?'}:`,
    );
    for (const p of chain) io.err(`  ${p.message}`);
  }
  if (records.length > 0) {
    io.err(`Trámites, votos y fotos que no coinciden con la cadena: ${formatCount(records.length)}`);
    for (const p of records) io.err(`  [${p.department ?? '?'}] ${p.message}`);
  }
  if (counters.length > 0) {
    io.err(`Contadores que no coinciden con la cadena: ${formatCount(counters.length)}`);
    for (const p of counters) io.err(`  ${p.message}`);
  }
  if (day.length > 0) {
    io.err(`Cierres, sellos de tiempo y fase de la jornada que no coinciden con la cadena: ${formatCount(day.length)}`);
    for (const p of day) io.err(`  ${p.message}`);
  }
  io.out(
    `${formatCount(report.rows)} registros en la cadena (verificada hasta el ${formatCount(report.verifiedUpTo)}), ` +
      `${formatCount(report.records)} trámites y ${formatCount(report.photosChecked)} fotos comparados.`,
  );
  io.out(report.ok ? 'Todo coincide.' : `${countOf(report.problems.length, 'problema', 'problemas')}.`);
}

export async function runAuditVerify(db: Kysely<Database>, storage: PhotoStorage, io: Io): Promise<number> {
  const report = await verifyAuditChain(db, { storage, progress: io.out });
  printVerifyReport(report, io);
  return report.ok ? 0 : 1;
}

export async function runEvidenceVerify(file: string, io: Io): Promise<number> {
  const report = await verifyEvidencePackage(file);
  for (const problem of report.problems) io.err(`  ${problem}`);
  io.out(`${formatCount(report.files)} archivos y ${formatCount(report.auditRows)} filas de auditoría comprobados.`);
  if (report.fingerprint) io.out(`Huella de la clave que firmó: ${report.fingerprint} (compárala con la de Ajustes).`);
  io.out(
    report.ok
      ? 'El paquete está íntegro y su firma es válida.'
      : `${countOf(report.problems.length, 'problema', 'problemas')}.`,
  );
  return report.ok ? 0 : 1;
}
