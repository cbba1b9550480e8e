import type { ImportReport } from '#shared/features/records-import/records-import';
import { formatCount, formatDecimal } from '#shared/platform/format';
import { cardClass } from '#web/platform/ui/back-office';

const number = formatCount;
const size = (bytes: number) =>
  bytes < 1024
    ? `${number(bytes)} bytes`
    : bytes < 1024 * 1024
      ? `${number(Math.round(bytes / 1024))} KB`
      : `${formatDecimal(bytes / 1024 / 1024, 1)} MB`;
const ENCODINGS: Record<string, string> = { 'utf-8': 'UTF-8', 'utf-8-bom': 'UTF-8 con BOM', 'latin-1': 'Latin-1' };
const SEPARATORS: Record<string, string> = { ';': 'punto y coma', ',': 'coma', '\t': 'tabulador' };
const FIELD_NAMES: Record<string, string> = {
  comunidad: 'Comunidades',
  nombre: 'Nombre',
  ubch: 'UBCH',
  telefono: 'Teléfono',
  department: 'Municipio o parroquia',
};

/** What an import found (or did): the counts, the file's problems, the rows with errors and the duplicates. */
export function ImportReportView({ report }: { report: ImportReport }) {
  const counts = [
    { label: 'Filas leídas', value: report.rows, testId: 'import-rows' },
    { label: report.applied ? 'Importadas' : 'Nuevas', value: report.valid, testId: 'import-valid', strong: true },
    { label: 'Ya registradas', value: report.duplicatesInDatabase, testId: 'import-dup-db' },
    { label: 'Repetidas en el archivo', value: report.duplicatesInFile, testId: 'import-dup-file' },
    { label: 'Con errores', value: report.invalid, testId: 'import-invalid', bad: report.invalid > 0 },
  ];
  const columns = Object.entries(report.columns);
  return (
    <div className="flex flex-col gap-4" data-testid="import-report">
      {report.fileProblems.length > 0 && (
        <div role="alert" className="rounded-xl border border-red-300 bg-red-50 p-4 text-red-950">
          <p className="font-bold">El archivo no se puede importar:</p>
          <ul className="mt-2 flex list-disc flex-col gap-1 pl-5">
            {report.fileProblems.map((p) => (
              <li key={`${p.line}-${p.reason}`}>
                {p.line !== null && <span className="font-semibold">Línea {number(p.line)}: </span>}
                {p.reason}
              </li>
            ))}
          </ul>
        </div>
      )}

      {report.fileProblems.length === 0 && (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {counts.map((c) => (
            <div
              key={c.label}
              className={`rounded-xl border p-4 shadow-sm ${
                c.bad ? 'border-red-300 bg-red-50' : c.strong ? 'border-brand bg-white' : 'border-stone-200 bg-white'
              }`}
            >
              <dt className="text-sm text-stone-700">{c.label}</dt>
              <dd className="text-2xl font-black text-stone-900 tabular-nums" data-testid={c.testId}>
                {number(c.value)}
              </dd>
            </div>
          ))}
        </dl>
      )}

      {report.encoding && (
        <p className="text-sm text-stone-700">
          Archivo «{report.fileName}» ({size(report.bytes)}), {ENCODINGS[report.encoding]}
          {report.separator ? `, separado por ${SEPARATORS[report.separator]}` : ''}.
          {columns.length > 0 && (
            <>
              {' '}
              Columnas:{' '}
              {columns.map(([field, header], i) => (
                <span key={field}>
                  {i > 0 ? ', ' : ''}
                  {FIELD_NAMES[field] ?? field} = «{header}»
                </span>
              ))}
              .
            </>
          )}
        </p>
      )}

      {report.byDepartment.length > 0 && (
        <section aria-labelledby="import-por-municipio" className={cardClass}>
          <h4 id="import-por-municipio" className="font-bold text-stone-900">
            {report.applied ? 'Importadas por municipio' : 'Filas nuevas por municipio'}
          </h4>
          <ul className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2">
            {report.byDepartment.map((d) => (
              <li key={d.slug} className="flex justify-between gap-3">
                <span>{d.title}</span>
                <span className="font-semibold tabular-nums">{number(d.rows)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {report.rowProblems.length > 0 && (
        <section aria-labelledby="import-errores">
          <h4 id="import-errores" className="mb-2 font-bold text-stone-900">
            Filas con errores
            {report.rowProblemsTotal > report.rowProblems.length &&
              ` (se muestran ${number(report.rowProblems.length)} de ${number(report.rowProblemsTotal)})`}
          </h4>
          {/* Cells wrap instead of scrolling sideways: a phone shows the whole row. */}
          <div className="rounded-xl border border-stone-200 bg-white">
            <table aria-labelledby="import-errores" className="w-full text-left text-sm">
              <thead className="bg-stone-100 text-stone-800">
                <tr>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Línea
                  </th>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Columna
                  </th>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Motivo
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.rowProblems.map((p) => (
                  <tr key={`${p.line}-${p.column}-${p.reason}`} className="border-t border-stone-200">
                    <td className="px-2 py-2 tabular-nums sm:px-3">{p.line}</td>
                    <td className="px-2 py-2 break-words sm:px-3">{p.column ?? 'Toda la fila'}</td>
                    <td className="px-2 py-2 break-words sm:px-3">{p.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {report.duplicates.length > 0 && (
        <section aria-labelledby="import-duplicados">
          <h4 id="import-duplicados" className="mb-2 font-bold text-stone-900">
            Repetidas (no se importan)
            {report.duplicatesInDatabase + report.duplicatesInFile > report.duplicates.length &&
              ` (se muestran ${number(report.duplicates.length)} de ${number(report.duplicatesInDatabase + report.duplicatesInFile)})`}
          </h4>
          {/* Cells wrap instead of scrolling sideways: a phone shows the whole row. */}
          <div className="rounded-xl border border-stone-200 bg-white">
            <table aria-labelledby="import-duplicados" className="w-full text-left text-sm">
              <thead className="bg-stone-100 text-stone-800">
                <tr>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Línea
                  </th>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Nombre
                  </th>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Teléfono
                  </th>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Municipio
                  </th>
                  <th scope="col" className="px-2 py-2 whitespace-nowrap sm:px-3">
                    Repite
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.duplicates.map((d) => (
                  <tr key={d.line} className="border-t border-stone-200">
                    <td className="px-2 py-2 tabular-nums sm:px-3">{d.line}</td>
                    <td className="px-2 py-2 break-words sm:px-3">{d.nombre}</td>
                    <td className="px-2 py-2 break-words sm:px-3">{d.telefono}</td>
                    <td className="px-2 py-2 break-words sm:px-3">{d.department}</td>
                    <td className="px-2 py-2 break-words sm:px-3">
                      {d.sameAsLine !== null ? `la línea ${d.sameAsLine}` : `el registro ${d.sameAsRecord}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
