import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import type { RecordAdmin, RecordBody, RecordsDepartment } from '#shared/features/records-admin/records-admin';
import { countOf, formatCount } from '#shared/platform/format';
import type { RecordsAdminFilter } from '#shared/platform/record-fields';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { useDebouncedValue } from '#web/platform/lib/use-debounced-value';
import { paths } from '#web/platform/paths';
import { badgeClass, buttonClass, cardClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { SelectField } from '#web/platform/ui/fields';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useCreateRecord } from '../api/create-record';
import { useRecordsAdmin } from '../api/get-records-admin';
import { useShowRecordPhone } from '../api/show-record-phone';
import { useUpdateRecord } from '../api/update-record';
import { RecordChangeDialog } from './record-change-dialogs';
import { RecordDialog } from './record-dialog';

// 'pendiente' is the stored status of every record not voided, the validated included: the label says so.
const STATUSES: { value: RecordsAdminFilter; label: string }[] = [
  { value: 'pendiente', label: 'Sin anular' },
  { value: 'anulado', label: 'Anulados' },
  { value: 'todos', label: 'Todos' },
];
/** The `municipio` of the address for every municipality and parish at once (the default). */
const ALL = 'todos';
const ALL_TITLE = 'Todos los municipios y parroquias';
const count = countOf;

/**
 * The department's records in parts that add up: the list's records are those without a vote, those
 * voted still waiting for photos and those validated; the voided are apart.
 */
function summaryText(d: RecordsDepartment): string {
  const parts = [
    count(d.total - d.voted, 'sin votar', 'sin votar'),
    count(d.voted - d.validated, 'votado sin las tres fotos', 'votados sin las tres fotos'),
    count(d.validated, 'validado', 'validados'),
  ];
  return `${d.title}: ${count(d.total, 'trámite', 'trámites')} en la lista de validación (${parts.join(', ')}) y ${count(d.voided, 'anulado', 'anulados')}.`;
}

type Dialog =
  | { kind: 'none' }
  | { kind: 'edit'; record: RecordAdmin | null }
  | { kind: 'void' | 'restore' | 'vote'; record: RecordAdmin };

/** Every municipality's counts added up, for the summary line of all of them. */
function allDepartments(departments: RecordsDepartment[]): RecordsDepartment {
  const sum = (key: 'total' | 'voted' | 'validated' | 'voided') => departments.reduce((n, d) => n + d[key], 0);
  return {
    slug: ALL,
    title: ALL_TITLE,
    total: sum('total'),
    voted: sum('voted'),
    validated: sum('validated'),
    voided: sum('voided'),
  };
}

export interface RecordsAdminPageProps {
  /** Every municipality and parish with its counts (`useRecordsDepartments`). */
  departments: RecordsDepartment[];
  /** The CSV download of one municipality's records (the import and export are their own feature). */
  exportUrl: (department: string, status: RecordsAdminFilter) => string;
  /**
   * Why the day's phase refuses correcting votes, voiding and restoring now (closed, or a drill): those
   * buttons are then not offered, and this says why. Undefined: they are.
   */
  locked?: string;
}

/**
 * The records back office: the records of every municipality and parish, or of one, with a search
 * (add, edit, void, restore, correct a vote), and the links to the CSV import and export.
 */
export default function RecordsAdminPage({ departments, exportUrl, locked }: RecordsAdminPageProps) {
  const [params, setParams] = useSearchParams();
  // The search looks in every municipality and parish until one is chosen.
  const chosen = departments.find((d) => d.slug === params.get('municipio'));
  const department = chosen?.slug ?? '';
  const firstWithRecords = (departments.find((d) => d.total > 0) ?? departments[0])?.slug ?? '';
  const status = (STATUSES.find((s) => s.value === params.get('estado'))?.value ?? 'pendiente') as RecordsAdminFilter;
  const [q, setQ] = useState('');
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [serverError, setServerError] = useState<string>();
  // The server is asked once the typing stops, not once per key.
  const searched = useDebouncedValue(q);
  const records = useRecordsAdmin({ department, q: searched, status });
  const create = useCreateRecord(showsOwnError);
  const update = useUpdateRecord(showsOwnError);
  const editDialog = useDialogOpening(dialog.kind === 'edit');
  const all = allDepartments(departments);
  const current = chosen ?? all;
  const items = records.data?.pages.flatMap((p) => p.items) ?? [];

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };
  const close = () => {
    setDialog({ kind: 'none' });
    setServerError(undefined);
  };
  const save = (body: RecordBody) => {
    const editing = dialog.kind === 'edit' ? dialog.record : null;
    // The dialog can be closed while this travels: the answer then comes as a toast only.
    const sentFrom = editDialog.opening;
    const saved = (result: { message: string; record: RecordAdmin }) => {
      toast.success(result.message);
      if (!editDialog.isShowing(sentFrom)) return;
      close();
      if (chosen && result.record.departmentSlug !== department) setParam('municipio', result.record.departmentSlug);
    };
    const failed = (error: Error) => showErrorFrom(editDialog, sentFrom, error, setServerError);
    return editing
      ? update.mutateAsync({ id: editing.id, ...body }).then(saved, failed)
      : create.mutateAsync(body).then(saved, failed);
  };

  return (
    <section aria-labelledby="registros-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="registros-titulo" className="text-2xl font-bold text-stone-900">
            Registros
          </h2>
          <p className="text-stone-700">Los trámites que los validadores ven en cada municipio o parroquia.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => setDialog({ kind: 'edit', record: null })}
          >
            Agregar registro
          </button>
          <Link to={paths.adminRecordsImport} className={buttonClass.secondary}>
            Importar CSV
          </Link>
          {chosen && (
            <a href={exportUrl(chosen.slug, status)} download className={buttonClass.secondary}>
              Exportar CSV
            </a>
          )}
        </div>
      </div>

      <div
        className={`${cardClass} grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] lg:grid-cols-[minmax(0,18rem)_auto_minmax(0,1fr)] lg:items-end`}
      >
        <SelectField
          id="registros-municipio"
          label="Municipio o parroquia"
          value={department || ALL}
          onChange={(e) => setParam('municipio', e.target.value)}
        >
          <option value={ALL}>
            {ALL_TITLE} ({formatCount(all.total)})
          </option>
          {departments.map((d) => (
            <option key={d.slug} value={d.slug}>
              {d.title} ({formatCount(d.total)})
            </option>
          ))}
        </SelectField>
        <fieldset className="flex flex-col">
          <legend className={`${labelClass} mb-1.5`}>Estado</legend>
          <div className="flex flex-wrap gap-2">
            {STATUSES.map((s) => (
              <label
                key={s.value}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border-2 border-stone-300 bg-white px-3 font-semibold text-stone-800 has-checked:border-brand has-checked:bg-brand-light has-focus-visible:outline-2 has-focus-visible:outline-brand"
              >
                <input
                  type="radio"
                  name="estado-registros"
                  value={s.value}
                  checked={status === s.value}
                  onChange={() => setParam('estado', s.value)}
                  className="h-4 w-4 accent-brand"
                />
                {s.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-1.5 sm:col-span-2 lg:col-span-1">
          <label htmlFor="registros-buscar" className={labelClass}>
            Buscar
          </label>
          <input
            id="registros-buscar"
            type="search"
            placeholder="Nombre, teléfono, comunidad, UBCH o código SMS"
            className={inputClass}
            value={q}
            maxLength={100}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
      </div>

      <p className="text-stone-700" data-testid="registros-resumen">
        {summaryText(current)}
      </p>
      {locked && (
        <p
          className="rounded-lg border-l-4 border-amber-500 bg-amber-50 p-3 text-stone-900"
          data-testid="registros-bloqueados"
        >
          {locked}
        </p>
      )}

      {records.isPending ? (
        <Spinner label="Cargando los registros…" />
      ) : records.isError ? (
        <ErrorNotice message={records.error.message} onRetry={() => records.refetch()} />
      ) : items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-600">
          {searched ? 'Ningún registro coincide con la búsqueda.' : 'No hay registros con este estado.'}
        </p>
      ) : (
        <ul
          className="grid gap-3 md:grid-cols-2"
          aria-label={chosen ? `Registros de ${chosen.title}` : 'Registros de todos los municipios y parroquias'}
        >
          {items.map((record) => (
            <li key={record.id}>
              <RecordCard
                record={record}
                showDepartment={!chosen}
                locked={locked !== undefined}
                onEdit={() => setDialog({ kind: 'edit', record })}
                onChange={(kind) => setDialog({ kind, record })}
              />
            </li>
          ))}
        </ul>
      )}
      {records.hasNextPage && (
        <button
          type="button"
          className={`${buttonClass.secondary} self-center`}
          disabled={records.isFetchingNextPage}
          onClick={() => records.fetchNextPage()}
        >
          {records.isFetchingNextPage ? 'Cargando…' : 'Cargar más registros'}
        </button>
      )}

      <RecordDialog
        open={dialog.kind === 'edit'}
        record={dialog.kind === 'edit' ? dialog.record : null}
        department={department || firstWithRecords}
        departments={departments}
        serverError={serverError}
        onSave={save}
        onClose={close}
      />
      <RecordChangeDialog
        change={dialog.kind === 'void' || dialog.kind === 'restore' || dialog.kind === 'vote' ? dialog : null}
        onClose={close}
      />
    </section>
  );
}

function RecordCard({
  record,
  showDepartment,
  locked,
  onEdit,
  onChange,
}: {
  record: RecordAdmin;
  /** In a list of every municipality, each record says which one it is in. */
  showDepartment: boolean;
  /** The day's phase refuses vote corrections, voids and restores: not offered. */
  locked: boolean;
  onEdit: () => void;
  onChange: (kind: 'void' | 'restore' | 'vote') => void;
}) {
  const voided = record.status === 'anulado';
  return (
    <article
      className={`${cardClass} flex h-full flex-col gap-2 ${voided ? 'bg-stone-50' : ''}`}
      aria-label={record.nombre}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 font-bold break-words text-stone-900">{record.nombre}</h3>
        <div className="flex flex-wrap gap-1">
          {voided && <span className={badgeClass.danger}>Anulado</span>}
          {record.validated ? (
            <span className={badgeClass.ok}>Validado</span>
          ) : record.votedAt ? (
            <span className={badgeClass.brand}>Votado{record.votes.length ? `: ${record.votes.join(', ')}` : ''}</span>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
        {showDepartment && (
          <>
            <dt className="text-stone-600">Municipio o parroquia</dt>
            <dd className="break-words text-stone-900">{record.departmentTitle}</dd>
          </>
        )}
        <dt className="text-stone-600">Teléfono</dt>
        <dd className="break-words text-stone-900">
          <RecordPhoneValue id={record.id} masked={record.telefono} name={record.nombre} />
        </dd>
        {record.code && (
          <>
            <dt className="text-stone-600">Código SMS</dt>
            <dd className="font-mono font-bold tracking-widest text-stone-900" data-testid="codigo-sms">
              {record.code}
            </dd>
          </>
        )}
        <dt className="text-stone-600">Comunidad</dt>
        <dd className="break-words text-stone-900">{record.comunidad || '—'}</dd>
        <dt className="text-stone-600">UBCH</dt>
        <dd className="break-words text-stone-900">{record.ubch || '—'}</dd>
        <dt className="text-stone-600">Voto</dt>
        <dd className="text-stone-900">
          {record.votedAt ? (record.votes.length > 0 ? record.votes.join(', ') : 'Ninguno') : 'Sin votar'}
          {record.votedAt && !record.voteCounts ? ' (no cuenta en los resultados)' : ''}
        </dd>
        <dt className="text-stone-600">Fotos</dt>
        <dd className="text-stone-900">{record.photos} de 3</dd>
        {record.votedBy && (
          <>
            <dt className="text-stone-600">Votado por</dt>
            <dd className="break-all text-stone-900">{record.votedBy}</dd>
          </>
        )}
        {record.validatedBy && (
          <>
            <dt className="text-stone-600">Validado por</dt>
            <dd className="break-all text-stone-900">{record.validatedBy}</dd>
          </>
        )}
      </dl>
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        {voided ? (
          !locked && (
            <button
              type="button"
              className={buttonClass.small}
              onClick={() => onChange('restore')}
              aria-label={`Restaurar: ${record.nombre}`}
            >
              Restaurar
            </button>
          )
        ) : (
          <>
            <button
              type="button"
              className={buttonClass.small}
              onClick={onEdit}
              aria-label={`Editar: ${record.nombre}`}
            >
              Editar
            </button>
            {record.votedAt && !locked && (
              <button
                type="button"
                className={buttonClass.small}
                onClick={() => onChange('vote')}
                aria-label={`Corregir voto: ${record.nombre}`}
              >
                Corregir voto
              </button>
            )}
            {!locked && (
              <button
                type="button"
                className={buttonClass.small}
                onClick={() => onChange('void')}
                aria-label={`Anular: ${record.nombre}`}
              >
                Anular
              </button>
            )}
          </>
        )}
      </div>
    </article>
  );
}

/**
 * The phone as the list has it, masked; 'Mostrar' asks the server for the whole one, which records who
 * looked (decision 081). It stays shown on this card only.
 */
export function RecordPhoneValue({ id, masked, name }: { id: number; masked: string; name: string }) {
  const show = useShowRecordPhone();
  // No phone (taken by 'Borrar datos personales'): nothing to show, so no 'Mostrar'.
  if (masked === '') return <span>—</span>;
  if (show.data) return <span>{show.data.telefono || '—'}</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span>{masked}</span>
      <button
        type="button"
        onClick={() => show.mutate(id)}
        aria-label={`Mostrar el teléfono de ${name}`}
        disabled={show.isPending}
        className="rounded border border-brand px-2 py-0.5 text-xs font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait"
      >
        Mostrar
      </button>
    </span>
  );
}
