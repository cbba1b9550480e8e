import { useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { type BulkAccessResult, type BulkLineStatus, bulkAccessBodySchema } from '#shared/features/people/people';
import { badgeClass, buttonClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { SelectField } from '#web/platform/ui/fields';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useBulkAccess } from '../api/bulk-access';

export interface BulkAccessFormProps {
  departments: Pick<AdminDepartment, 'slug' | 'title'>[];
  /** Fixes the department (the department's own dialog). */
  fixedSlug?: string;
}

const STATUS: Record<BulkLineStatus, { label: string; preview?: string; badge: string }> = {
  added: { label: 'Añadido', preview: 'Se añadirá', badge: badgeClass.ok },
  removed: { label: 'Retirado', preview: 'Se retirará', badge: badgeClass.ok },
  already: { label: 'Sin cambio', badge: badgeClass.neutral },
  absent: { label: 'Sin cambio', badge: badgeClass.neutral },
  duplicate: { label: 'Repetido', badge: badgeClass.neutral },
  invalid: { label: 'Inválido', badge: badgeClass.danger },
};

/**
 * Paste e-mails (one per line, or separated by commas or semicolons), pick the department and whether
 * to grant or revoke; "Revisar" shows what would happen line by line, "Aplicar" does it.
 */
export function BulkAccessForm({ departments, fixedSlug }: BulkAccessFormProps) {
  const id = useId();
  const form = useDraftForm(bulkAccessBodySchema, () => ({
    text: '',
    slug: fixedSlug ?? '',
    action: 'grant' as 'grant' | 'revoke',
  }));
  const { draft, errors, set } = form;
  const { text, slug, action } = draft;
  const [report, setReport] = useState<BulkAccessResult | null>(null);
  const bulk = useBulkAccess();

  // "Revisar" and "Aplicar" send the same checked body, with or without dryRun. The outcome of "Aplicar"
  // is said in a toast even if the dialog this form is in was closed meanwhile.
  const run = (dryRun: boolean) =>
    form.submit((body) =>
      bulk.mutateAsync({ ...body, dryRun }).then(
        (result) => {
          setReport(result);
          if (!result.dryRun) {
            toast.success(
              `${result.action === 'grant' ? 'Acceso concedido' : 'Acceso retirado'} en ${result.title}: ${result.summary.changed} ${result.summary.changed === 1 ? 'correo' : 'correos'}.`,
            );
            if (result.summary.invalid === 0) set('text', '');
          }
        },
        // The query client's default toast says why.
        () => undefined,
      ),
    )();

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-correos`} className={labelClass}>
          Correos
        </label>
        <textarea
          id={`${id}-correos`}
          className={`${inputClass} min-h-32 font-mono text-sm`}
          value={text}
          onChange={(e) => set('text', e.target.value)}
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={`${id}-correos-ayuda${errors.text ? ` ${id}-correos-error` : ''}`}
          spellCheck={false}
          autoCapitalize="none"
        />
        <p id={`${id}-correos-ayuda`} className="text-sm text-stone-600">
          Uno por línea, o separados por comas o punto y coma. Hasta 1000 a la vez.
        </p>
        {errors.text && (
          <p id={`${id}-correos-error`} className="text-sm font-semibold text-red-800">
            {errors.text}
          </p>
        )}
      </div>
      {!fixedSlug && (
        <SelectField
          id={`${id}-departamento`}
          label="Departamento"
          value={slug}
          onChange={(e) => set('slug', e.target.value)}
          error={errors.slug && 'Elige un departamento.'}
        >
          <option value="">Elige un departamento…</option>
          {departments.map((d) => (
            <option key={d.slug} value={d.slug}>
              {d.title}
            </option>
          ))}
        </SelectField>
      )}
      <fieldset className="flex flex-col gap-1">
        <legend className={labelClass}>Qué hacer</legend>
        <div className="flex flex-wrap gap-x-6">
          {(
            [
              ['grant', 'Dar acceso'],
              ['revoke', 'Quitar acceso'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex min-h-11 cursor-pointer items-center gap-2">
              <input
                type="radio"
                name={`${id}-accion`}
                className="h-5 w-5 accent-brand"
                checked={action === value}
                onChange={() => set('action', value)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-3 sm:flex-row">
        <SubmitButton type="button" sending={form.sending} className={buttonClass.secondary} onClick={() => run(true)}>
          Revisar
        </SubmitButton>
        <SubmitButton type="button" sending={form.sending} onClick={() => run(false)}>
          Aplicar
        </SubmitButton>
      </div>
      {report && <BulkReport report={report} />}
    </div>
  );
}

function BulkReport({ report }: { report: BulkAccessResult }) {
  const { summary } = report;
  const verb = report.action === 'grant' ? 'reciben acceso' : 'pierden el acceso';
  const done = report.action === 'grant' ? 'recibieron acceso' : 'perdieron el acceso';
  return (
    <section
      aria-label="Informe por línea"
      className="rounded-lg border border-stone-200 bg-stone-50 p-3"
      data-testid="bulk-report"
    >
      <p className="font-semibold text-stone-900" role="status">
        {report.dryRun ? 'Revisión (sin cambios): ' : ''}
        {summary.changed} {report.dryRun ? verb : done} en {report.title}; {summary.unchanged} sin cambio;{' '}
        {summary.invalid} {summary.invalid === 1 ? 'línea inválida' : 'líneas inválidas'}; {summary.duplicate}{' '}
        {summary.duplicate === 1 ? 'repetida' : 'repetidas'}.
      </p>
      <ol className="mt-2 flex max-h-72 flex-col gap-1 overflow-y-auto">
        {report.lines.map((line, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the report's order is fixed; lines may repeat
            key={i}
            className="flex flex-wrap items-baseline gap-x-2 gap-y-1 rounded-md bg-white px-2 py-1.5"
          >
            <span className="w-16 shrink-0 text-sm text-stone-600">Línea {line.line}</span>
            <span className={STATUS[line.status].badge}>
              {(report.dryRun && STATUS[line.status].preview) || STATUS[line.status].label}
            </span>
            <span className="min-w-0 break-all font-mono text-sm text-stone-900">{line.email ?? line.text}</span>
            <span className="w-full text-sm text-stone-700 sm:w-auto">{line.message}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
