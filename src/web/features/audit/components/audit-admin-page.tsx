import { Fragment, useRef, useState } from 'react';
import {
  AUDIT_ACTION_FAMILIES,
  AUDIT_ACTION_LABELS,
  type AuditEntry,
  type AuditFilters,
  auditDetailLabel,
  auditDetailValue,
  auditEntryTitle,
  auditFiltersSchema,
  auditTargetLabel,
} from '#shared/features/audit/audit';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { formatDateTime } from '#web/platform/lib/format';
import { useDebouncedValue } from '#web/platform/lib/use-debounced-value';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { buttonClass, cardClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { DepartmentSelect, fieldErrors, SelectField } from '#web/platform/ui/fields';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { Pager } from '#web/platform/ui/pager';
import { auditCsvUrl, useAudit } from '../api/get-audit';

const EMPTY = { person: '', action: '', department: '', from: '', to: '' };

/** The audit log: who did what, where and when; filters, pages and the CSV of the same rows. */
export default function AuditAdminPage({ departments }: { departments: AdminDepartment[] }) {
  useDocumentTitle('Auditoría · Administración');
  const [draft, setDraft] = useState(EMPTY);
  const [page, setPage] = useState(1);
  const person = useDebouncedValue(draft.person.trim());
  const parsed = auditFiltersSchema.safeParse({ ...draft, person });
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  // Only valid filters are asked for: while the dates are wrong, the last valid result stays.
  const lastValid = useRef<AuditFilters>({});
  if (parsed.success) lastValid.current = parsed.data;
  const wanted = lastValid.current;
  const audit = useAudit(wanted, page);

  const titles = new Map(departments.map((d) => [d.slug, d.title]));
  const set = (key: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setDraft({ ...draft, [key]: e.target.value });
    setPage(1);
  };

  return (
    <section aria-labelledby="auditoria-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="auditoria-titulo" className="text-2xl font-bold text-stone-900">
          Auditoría
        </h2>
        <a href={auditCsvUrl(wanted)} download className={buttonClass.secondary}>
          Descargar CSV
        </a>
      </div>
      <search>
        <form className="grid grid-cols-2 gap-3 lg:grid-cols-6" onSubmit={(e) => e.preventDefault()}>
          <div className="col-span-2 flex flex-col gap-1.5">
            <label htmlFor="auditoria-persona" className={labelClass}>
              Persona
            </label>
            <input
              id="auditoria-persona"
              type="search"
              className={inputClass}
              value={draft.person}
              onChange={set('person')}
              aria-describedby="auditoria-persona-ayuda"
              autoCapitalize="none"
              spellCheck={false}
            />
            <p id="auditoria-persona-ayuda" className="text-sm text-stone-600">
              Parte del correo de quien actuó o de la persona afectada.
            </p>
          </div>
          <SelectField id="auditoria-accion" label="Acción" value={draft.action} onChange={set('action')}>
            <option value="">Todas</option>
            <optgroup label="Grupos">
              {AUDIT_ACTION_FAMILIES.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label} (todas)
                </option>
              ))}
            </optgroup>
            <optgroup label="Acciones">
              {Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </optgroup>
          </SelectField>
          <DepartmentSelect
            id="auditoria-departamento"
            label="Departamento"
            value={draft.department}
            onChange={set('department')}
            departments={departments}
          />
          <DateField id="auditoria-desde" label="Desde" value={draft.from} onChange={set('from')} error={errors.from} />
          <DateField id="auditoria-hasta" label="Hasta" value={draft.to} onChange={set('to')} error={errors.to} />
          <div className="col-span-2 flex items-end lg:col-span-6">
            <button
              type="button"
              className={buttonClass.secondary}
              onClick={() => {
                setDraft(EMPTY);
                setPage(1);
              }}
            >
              Limpiar filtros
            </button>
          </div>
        </form>
      </search>
      <p className="text-sm text-stone-600">Fechas y horas de Caracas.</p>

      {audit.isPending ? (
        <Spinner />
      ) : audit.isError ? (
        <ErrorNotice message={audit.error.message} onRetry={() => audit.refetch()} />
      ) : (
        <div aria-busy={audit.isFetching}>
          {audit.data.items.length === 0 ? (
            <p className="rounded-lg bg-white p-4 text-stone-700">No hay registros con estos filtros.</p>
          ) : (
            <ol className="flex flex-col gap-2" aria-label="Registros de auditoría">
              {audit.data.items.map((entry) => (
                <AuditRow key={entry.id} entry={entry} titleOf={(slug) => titles.get(slug)} />
              ))}
            </ol>
          )}
          <Pager
            page={audit.data.page}
            pageSize={audit.data.pageSize}
            total={audit.data.total}
            onPage={setPage}
            noun="registros"
          />
        </div>
      )}
    </section>
  );
}

function DateField(props: {
  id: string;
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={props.id} className={labelClass}>
        {props.label}
      </label>
      <input
        id={props.id}
        type="date"
        className={inputClass}
        value={props.value}
        onChange={props.onChange}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
      />
      {props.error && (
        <p id={`${props.id}-error`} className="text-sm font-semibold text-red-800">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The details of an audit row in words: each key with its Spanish label, nested ones indented. */
function DetailList({ value }: { value: Record<string, unknown> }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
      {Object.entries(value).map(([key, item]) => (
        <Fragment key={key}>
          <dt className="font-semibold text-stone-700">{auditDetailLabel(key)}</dt>
          <dd className="min-w-0 break-words">
            {item !== null && typeof item === 'object' && !Array.isArray(item) ? (
              <DetailList value={item as Record<string, unknown>} />
            ) : (
              auditDetailValue(key, item)
            )}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Details({ details }: { details: string }) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    parsed = undefined;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (
    <DetailList value={parsed as Record<string, unknown>} />
  ) : (
    <p className="break-all">{details}</p>
  );
}

function AuditRow({ entry, titleOf }: { entry: AuditEntry; titleOf: (slug: string) => string | undefined }) {
  const departmentTitle = entry.departmentSlug ? titleOf(entry.departmentSlug) : undefined;
  return (
    <li className={`${cardClass} grid gap-x-4 gap-y-1 p-3 md:grid-cols-[13rem_minmax(0,1fr)_minmax(0,1.2fr)]`}>
      <p className="text-sm whitespace-nowrap text-stone-700 tabular-nums">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </p>
      <p className="min-w-0">
        <span className="font-semibold text-stone-900">{auditEntryTitle(entry)}</span>
        <br />
        <span className="break-all text-sm text-stone-800">{entry.actorEmail ?? 'Desconocido'}</span>
      </p>
      <div className="min-w-0 text-sm text-stone-800">
        {entry.departmentSlug && <p>Departamento: {departmentTitle ?? entry.departmentSlug}</p>}
        {entry.target && <p className="break-all">{auditTargetLabel(entry.action, entry.target, titleOf)}</p>}
        {entry.ip && <p className="text-stone-600">IP {entry.ip}</p>}
        {entry.details && (
          <details className="mt-1">
            <summary className="cursor-pointer font-semibold text-stone-700">Detalles</summary>
            <div className="mt-1 rounded bg-stone-50 p-2 text-xs">
              <Details details={entry.details} />
            </div>
          </details>
        )}
      </div>
    </li>
  );
}
