import { useState } from 'react';
import { type AdminDepartment, progressPercent } from '#shared/features/departments/departments';
import { formatCount, formatPercent } from '#shared/platform/format';
import { departmentKindLabel } from '#shared/platform/parishes';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { badgeClass, buttonClass, cardClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useDepartments } from '../api/get-departments';
import { CreateDepartmentDialog } from './create-department-dialog';
import { DepartmentDialog, type DepartmentDialogProps } from './department-dialog';

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const people = (n: number) => `${formatCount(n)} ${n === 1 ? 'persona' : 'personas'}`;

/**
 * Who may open it, as it is: admins open every staff page whatever its list; a municipality or parish
 * only the people on its list.
 */
function whoSees(d: AdminDepartment): string {
  if (d.kind === 'page')
    return d.members === 0 ? 'Solo administradores' : `Administradores y ${people(d.members)} en la lista`;
  return d.members === 0 ? 'Nadie en la lista: solo lo ven quienes se agreguen' : `${people(d.members)} en la lista`;
}

/** Departments: progress of each municipality, list sizes, titles and allow-lists. */
export default function DepartmentsAdminPage({ bulkAccess }: Pick<DepartmentDialogProps, 'bulkAccess'>) {
  useDocumentTitle('Departamentos · Administración');
  const departments = useDepartments();
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  if (departments.isPending) return <Spinner />;
  if (departments.isError) {
    return <ErrorNotice message={departments.error.message} onRetry={() => departments.refetch()} />;
  }
  const shown = departments.data.items.filter((d) => !filter || fold(`${d.title} ${d.slug}`).includes(fold(filter)));

  return (
    <section aria-labelledby="departamentos-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="departamentos-titulo" className="text-2xl font-bold text-stone-900">
          Departamentos
        </h2>
        <button type="button" className={buttonClass.primary} onClick={() => setAdding(true)}>
          Nuevo departamento
        </button>
      </div>
      <div className="flex max-w-md flex-col gap-1.5">
        <label htmlFor="departamentos-filtro" className={labelClass}>
          Buscar departamento
        </label>
        <input
          id="departamentos-filtro"
          type="search"
          className={inputClass}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      {shown.length === 0 && <p className="rounded-lg bg-white p-4 text-stone-700">Ningún departamento coincide.</p>}
      <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label="Departamentos">
        {shown.map((d) => {
          const percent = progressPercent(d.validated, d.total);
          const headingId = `departamento-${d.slug}`;
          return (
            <li key={d.slug}>
              <article aria-labelledby={headingId} className={`${cardClass} flex h-full flex-col gap-1.5 p-3 sm:p-4`}>
                <div className="flex items-start justify-between gap-2">
                  <h3 id={headingId} className="min-w-0 text-lg font-bold text-stone-900">
                    {d.title}
                  </h3>
                  <button
                    type="button"
                    className={buttonClass.small}
                    aria-label={`Editar: ${d.title}`}
                    onClick={() => setOpen(d.slug)}
                  >
                    Editar
                  </button>
                </div>
                <p className="flex flex-wrap items-center gap-2 text-sm">
                  <span className={d.kind === 'page' ? badgeClass.brand : badgeClass.neutral}>
                    {departmentKindLabel(d)}
                  </span>
                  <span className="break-words font-mono text-stone-600">{d.path}</span>
                </p>
                <p className="text-sm text-stone-800">
                  {whoSees(d)}
                  {d.kind === 'municipality' &&
                    (d.total === 0
                      ? ' · Sin trámites'
                      : ` · ${formatCount(d.validated)} de ${formatCount(d.total)} validados (${formatPercent(percent)})`)}
                </p>
                {d.kind === 'municipality' && d.total > 0 && (
                  <div
                    className="mt-auto h-2.5 w-full overflow-hidden rounded-full bg-stone-200"
                    role="progressbar"
                    aria-label={`Avance de ${d.title}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(percent * 10) / 10}
                    aria-valuetext={formatPercent(percent)}
                  >
                    <div className="h-full rounded-full bg-brand" style={{ width: `${Math.min(100, percent)}%` }} />
                  </div>
                )}
              </article>
            </li>
          );
        })}
      </ul>
      <DepartmentDialog slug={open} onClose={() => setOpen(null)} bulkAccess={bulkAccess} />
      <CreateDepartmentDialog open={adding} onClose={() => setAdding(false)} onCreated={setOpen} />
    </section>
  );
}
