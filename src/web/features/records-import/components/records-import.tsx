import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import type { RecordsDepartment } from '#shared/features/records-admin/records-admin';
import { IMPORT_MAX_BYTES } from '#shared/features/records-import/records-import';
import { formatCount, formatPercent } from '#shared/platform/format';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { buttonClass, cardClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { SelectField } from '#web/platform/ui/fields';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useSendOnce } from '#web/platform/ui/use-draft-form';
import { type ImportAnswer, type ImportProgress, useImportRecords } from '../api/import-records';
import { ImportReportView } from './import-report';

export const TEMPLATE_CSV =
  '\uFEFFComunidades;Nombre;UBCH;Telefono;Departamento\r\nSector Los Olivos;María Pérez;UBCH 110100001;0414-1234567;cabimas\r\n';

const number = formatCount;

function progressText(p: ImportProgress): string {
  const percent = formatPercent(p.total > 0 ? Math.min(100, Math.floor((p.done / p.total) * 100)) : 0, 0);
  if (p.phase === 'subiendo') return `Subiendo el archivo… ${percent}`;
  if (p.phase === 'revisando') return `Revisando las filas… ${percent}`;
  return `Importando las filas… ${percent}`;
}

/** The import's progress: the upload, then the server's phases (checking, saving). */
export function ImportProgressBar({ progress }: { progress: ImportProgress | null }) {
  const percent =
    progress && progress.total > 0 ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : 0;
  const text = progress ? progressText(progress) : 'Preparando…';
  return (
    <div className={`${cardClass} flex flex-col gap-2`}>
      <p className="font-semibold text-stone-800" aria-hidden="true">
        {text}
      </p>
      <div
        role="progressbar"
        aria-label="Avance de la importación"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-3 w-full overflow-hidden rounded-full bg-stone-200"
      >
        <div
          className="h-full rounded-full bg-brand transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

type Stage = 'elegir' | 'revisando' | 'revisado' | 'importando' | 'importado';

/**
 * Importing a CSV of records: choose the file, review it (a dry run that changes nothing: counts,
 * problems by line and column, duplicates), then import every new row in one go.
 */
export function RecordsImport({ departments, backTo }: { departments: RecordsDepartment[]; backTo: string }) {
  const fileId = useId();
  const fileHintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [department, setDepartment] = useState('');
  const [stage, setStage] = useState<Stage>('elegir');
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string>();
  const run = useImportRecords(setProgress, showsOwnError);
  const once = useSendOnce();
  const busy = stage === 'revisando' || stage === 'importando';

  const start = (mode: 'simulacion' | 'importar', omitInvalid = false) => {
    if (!file) {
      setError('Elige el archivo CSV.');
      return;
    }
    if (file.size > IMPORT_MAX_BYTES) {
      setError(`El archivo supera el máximo de ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Divídelo en partes más pequeñas.`);
      return;
    }
    // One file at a time: a second click while it travels is ignored (decision 066).
    once.send(() => {
      setError(undefined);
      setProgress(null);
      setStage(mode === 'simulacion' ? 'revisando' : 'importando');
      return run.mutateAsync({ file, mode, department: department || undefined, omitInvalid }).then(
        (result) => {
          setAnswer(result);
          const applied = result.body.report.applied;
          setStage(applied ? 'importado' : 'revisado');
          if (applied) toast.success(result.body.message);
        },
        (e: Error) => {
          setError(e.message);
          setStage(answer ? 'revisado' : 'elegir');
        },
      );
    });
  };

  const reset = () => {
    setFile(null);
    setAnswer(null);
    setProgress(null);
    setError(undefined);
    setStage('elegir');
    if (fileInput.current) fileInput.current.value = '';
  };

  const downloadTemplate = () => {
    const url = URL.createObjectURL(new Blob([TEMPLATE_CSV], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'plantilla-registros.csv';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };

  const report = answer?.body.report;
  const canImport = report && report.fileProblems.length === 0 && !report.applied && report.valid > 0;

  return (
    <section aria-labelledby="importar-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="importar-titulo" className="text-2xl font-bold text-stone-900">
          Importar registros
        </h2>
        <Link
          to={backTo}
          className="font-semibold text-brand underline underline-offset-4 hover:text-brand-dark focus-visible:outline-2 focus-visible:outline-brand"
        >
          Volver a los registros
        </Link>
      </div>

      <form
        noValidate
        className={`${cardClass} flex flex-col gap-4`}
        onSubmit={(e) => {
          e.preventDefault();
          start('simulacion');
        }}
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fileId} className={labelClass}>
            Archivo CSV
          </label>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept=".csv,text/csv,text/plain"
            aria-describedby={fileHintId}
            disabled={busy}
            className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-brand-light file:px-3 file:py-1.5 file:font-semibold file:text-brand-dark`}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setAnswer(null);
              setStage('elegir');
              setError(undefined);
            }}
          />
          <p id={fileHintId} className="text-sm text-stone-600">
            Columnas: Comunidades, Nombre, UBCH, Telefono y Departamento (el municipio o parroquia, por ejemplo
            «cabimas» o «Machiques de Perijá»). Separado por punto y coma o por coma; UTF-8 o Latin-1. Hasta{' '}
            {IMPORT_MAX_BYTES / 1024 / 1024} MB.{' '}
            <button
              type="button"
              onClick={downloadTemplate}
              className="font-semibold text-brand underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand"
            >
              Descargar plantilla
            </button>
          </p>
        </div>
        <SelectField
          label="Municipio de las filas sin columna Departamento"
          hint="Solo si el archivo no trae esa columna (o la deja vacía en alguna fila)."
          value={department}
          disabled={busy}
          onChange={(e) => setDepartment(e.target.value)}
        >
          <option value="">— Según la columna del archivo —</option>
          {departments.map((d) => (
            <option key={d.slug} value={d.slug}>
              {d.title}
            </option>
          ))}
        </SelectField>
        {error && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          {(answer || file) && (
            <button type="button" className={buttonClass.secondary} onClick={reset} disabled={busy}>
              Elegir otro archivo
            </button>
          )}
          <SubmitButton sending={busy} disabled={!file}>
            {stage === 'revisando' ? 'Revisando…' : 'Revisar el archivo'}
          </SubmitButton>
        </div>
      </form>

      {busy && <ImportProgressBar progress={progress} />}

      {answer && report && (
        <section aria-labelledby="import-resultado" className="flex flex-col gap-4">
          <h3 id="import-resultado" className="text-xl font-bold text-stone-900">
            {report.applied ? 'Importación terminada' : report.mode === 'simulacion' ? 'Revisión' : 'Importación'}
          </h3>
          <p
            role="status"
            className={`rounded-lg border p-3 font-semibold ${
              answer.status === 422
                ? 'border-red-200 bg-red-50 text-red-900'
                : report.applied
                  ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
                  : 'border-stone-200 bg-white text-stone-800'
            }`}
          >
            {answer.body.message}
          </p>
          <ImportReportView report={report} />
          {canImport && stage !== 'importando' && (
            <div className={`${cardClass} flex flex-col gap-3`}>
              {report.invalid > 0 ? (
                <p className="text-stone-800">
                  Hay {number(report.invalid)} {report.invalid === 1 ? 'fila' : 'filas'} con errores. Corrige el archivo
                  y revísalo de nuevo, o importa solo las filas válidas: las demás quedan fuera.
                </p>
              ) : (
                <p className="text-stone-800">
                  Se agregarán {number(report.valid)} registros en una sola operación: o todos, o ninguno.
                </p>
              )}
              <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
                <SubmitButton type="button" sending={busy} onClick={() => start('importar', report.invalid > 0)}>
                  {report.invalid > 0
                    ? report.valid === 1
                      ? 'Importar solo la fila válida'
                      : `Importar solo las ${number(report.valid)} filas válidas`
                    : `Importar ${number(report.valid)} ${report.valid === 1 ? 'registro' : 'registros'}`}
                </SubmitButton>
              </div>
            </div>
          )}
          {report.applied && (
            <Link to={backTo} className={`${buttonClass.primary} self-start`}>
              Ver los registros
            </Link>
          )}
        </section>
      )}
    </section>
  );
}
