// biome-ignore-all lint/a11y/noRedundantRoles: on a phone the tables are shown as cards (CSS display), and some browsers drop a table's semantics then unless its roles are explicit.
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { FieldOverview, FieldValidator, FieldView } from '#shared/features/field/field';
import { atTime, formatCount } from '#shared/platform/format';
import { formatClock, formatDateTime } from '#web/platform/lib/format';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { buttonClass } from '#web/platform/ui/back-office';
import { SelectField } from '#web/platform/ui/fields';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { answerInToast, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useClearField } from '../api/clear-field';
import { FIELD_REFRESH_MS, useFieldOverview, useFieldView } from '../api/get-field';
import { FieldMap, FieldPaceTable, useFieldLive } from './field-night';

/** 'hace 12 min', counted from the server's time of the answer (never the phone's own clock). */
export function ago(iso: string, from: string): string {
  const minutes = Math.floor((new Date(from).getTime() - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return 'hace menos de 1 min';
  if (minutes < 60) return `hace ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `hace ${hours} h`;
  return `hace ${formatCount(Math.floor(hours / 24))} días`;
}

function When({ iso, from, empty }: { iso: string | null; from: string; empty: string }) {
  if (!iso) return <span className="text-stone-600">{empty}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {ago(iso, from)}
    </time>
  );
}

/**
 * On a phone the tables become one card per row, with each cell's column name above it: no sideways
 * scrolling. The table roles are given explicitly so that a screen reader keeps the table once the CSS
 * turns its parts into blocks; the header row stays for it, out of sight.
 */
const phone = {
  table: 'w-full border-collapse text-sm max-sm:block',
  head: 'bg-stone-100 text-left text-stone-800 max-sm:sr-only',
  body: 'divide-y divide-stone-200 text-stone-900 max-sm:block',
  row: 'max-sm:grid max-sm:gap-x-3 max-sm:gap-y-2 max-sm:p-3',
  rowHeader: 'px-3 py-2 text-left font-semibold break-all max-sm:col-span-2 max-sm:p-0',
  cell: 'px-3 py-2 max-sm:p-0 max-sm:before:block max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-stone-600 max-sm:before:content-[attr(data-label)]',
  wide: 'max-sm:col-span-2',
} as const;

/** Whose waiting items a coordinator is about to clear, and where. */
interface ClearTarget {
  email: string;
  slug: string;
  title: string;
  waiting: number;
}

/**
 * After the server was restored from a copy (decision 135): whether this person's phones have checked
 * their items against it, what they sent again and what from before the loss still waits on them.
 */
function RecoveryNote({ recovery }: { recovery: NonNullable<FieldValidator['recovery']> }) {
  if (!recovery.checked) {
    return (
      <span className="block text-sm font-semibold text-amber-900">Su teléfono aún no revisó la restauración</span>
    );
  }
  return (
    <span className="block text-sm">
      {recovery.fromBefore > 0 && (
        <span className="block font-semibold text-amber-900">
          {formatCount(recovery.fromBefore)} de antes de la pérdida por reenviar
        </span>
      )}
      {recovery.resent > 0 && (
        <span className="block">{formatCount(recovery.resent)} reenviados tras la restauración</span>
      )}
      {recovery.fromBefore === 0 && recovery.resent === 0 && <span className="block">Nada que reenviar</span>}
    </span>
  );
}

function ValidatorRow({
  v,
  from,
  department,
  onClear,
}: {
  v: FieldValidator;
  from: string;
  /** The department column of the view of all departments. */
  department?: { slug: string; title: string };
  onClear: (() => void) | null;
}) {
  return (
    <tr role="row" className={`${v.stuck ? 'bg-red-50' : 'bg-white'} ${phone.row} max-sm:grid-cols-2`}>
      <th role="rowheader" scope="row" className={`${phone.rowHeader} text-stone-900`}>
        {v.email}
        {v.stuck && (
          <span className="ml-2 inline-block rounded-full bg-red-800 px-2 py-0.5 text-xs font-bold whitespace-nowrap text-white">
            Atascado
          </span>
        )}
      </th>
      {department && (
        <td role="cell" data-label="Municipio o parroquia" className={`${phone.cell} ${phone.wide}`}>
          <Link to={paths.field(department.slug)} className="font-semibold text-brand underline">
            {department.title}
          </Link>
        </td>
      )}
      <td role="cell" data-label="Última conexión" className={phone.cell}>
        <When iso={v.lastSeenAt} from={from} empty="Nunca" />
      </td>
      <td
        role="cell"
        data-label="Por enviar"
        className={`${phone.cell} text-right tabular-nums max-sm:text-left ${v.waiting > 0 ? 'font-bold' : ''}`}
      >
        {formatCount(v.waiting)}
        {(v.heardBeforeClose ?? 0) > 0 && (
          <span className="block text-sm font-semibold">
            {formatCount(v.heardBeforeClose ?? 0)} de antes del cierre
          </span>
        )}
        {v.recovery && <RecoveryNote recovery={v.recovery} />}
      </td>
      <td role="cell" data-label="Más antiguo" className={`${phone.cell} ${v.stuck ? 'font-bold text-red-900' : ''}`}>
        <When iso={v.oldestWaitingAt} from={from} empty="—" />
      </td>
      <td role="cell" data-label="Último error" className={phone.cell}>
        {v.lastError ? (
          <>
            {v.lastError.message} <When iso={v.lastError.at} from={from} empty="" />
          </>
        ) : (
          <span className="text-stone-600">—</span>
        )}
      </td>
      <td role="cell" className={`${phone.cell} ${phone.wide} max-sm:empty:hidden`}>
        {onClear && (
          <button
            type="button"
            className={buttonClass.small}
            onClick={onClear}
            aria-label={`Quitar aviso de ${v.email}${department ? ` en ${department.title}` : ''}`}
          >
            Quitar aviso
          </button>
        )}
      </td>
    </tr>
  );
}

function ColumnHeader({ children, right = false }: { children: ReactNode; right?: boolean }) {
  return (
    <th role="columnheader" scope="col" className={`px-3 py-2 ${right ? 'text-right' : ''}`}>
      {children}
    </th>
  );
}

function ValidatorsTable({
  caption,
  from,
  rows,
  withDepartment,
  onClear,
}: {
  caption: string;
  from: string;
  rows: { v: FieldValidator; slug: string; title: string }[];
  withDepartment: boolean;
  onClear: (target: ClearTarget) => void;
}) {
  return (
    // No sideways scrolling on a phone: cells wrap (addresses break anywhere).
    <div className="mt-4 rounded-xl border border-stone-200">
      <table role="table" className={phone.table}>
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className={phone.head}>
          <tr role="row">
            <ColumnHeader>Validador</ColumnHeader>
            {withDepartment && <ColumnHeader>Municipio o parroquia</ColumnHeader>}
            <ColumnHeader>Última conexión</ColumnHeader>
            <ColumnHeader right>Por enviar</ColumnHeader>
            <ColumnHeader>Más antiguo</ColumnHeader>
            <ColumnHeader>Último error</ColumnHeader>
            <ColumnHeader>
              <span className="sr-only">Acciones</span>
            </ColumnHeader>
          </tr>
        </thead>
        <tbody role="rowgroup" className={phone.body}>
          {rows.map(({ v, slug, title }) => (
            <ValidatorRow
              key={`${slug} ${v.email}`}
              v={v}
              from={from}
              department={withDepartment ? { slug, title } : undefined}
              onClear={v.waiting > 0 ? () => onClear({ email: v.email, slug, title, waiting: v.waiting }) : null}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The summary line: red with how many are stuck, or the green all-clear, and the answer's time. */
function Summary({
  stuck,
  minutes,
  generatedAt,
  where,
}: {
  stuck: number;
  minutes: number;
  generatedAt: string;
  where?: string;
}) {
  return (
    <p
      className={`mt-4 rounded-lg p-3 font-semibold ${stuck ? 'bg-red-100 text-red-950' : 'bg-emerald-50 text-emerald-950'}`}
    >
      {stuck === 0
        ? 'Nadie tiene envíos atascados.'
        : `${formatCount(stuck)} ${stuck === 1 ? 'validador tiene' : 'validadores tienen'} envíos esperando hace más de ${formatCount(minutes)} min${where ?? ''}.`}{' '}
      <span className="font-normal">Actualizado {atTime(formatClock(new Date(generatedAt)))}</span>
    </p>
  );
}

/**
 * Asks before forgetting what a person's phones said waits: for a phone that went quiet (lost, wiped,
 * its items deleted), after talking to its person. A phone that still holds the items says so again.
 */
function ClearDialog({ target, onClose }: { target: ClearTarget | null; onClose: () => void }) {
  const clear = useClearField();
  const dialog = useDialogOpening(target !== null);
  return (
    <ConfirmDialog
      open={target !== null}
      title="Quitar aviso"
      message={
        target ? (
          <>
            ¿Quitar {target.waiting === 1 ? 'el envío' : `los ${formatCount(target.waiting)} envíos`} que el teléfono de{' '}
            {target.email} dijo tener por enviar en {target.title}? Hazlo solo si esa persona confirmó que su teléfono
            ya no los tiene. Si el teléfono vuelve a informar, aparecerán de nuevo. Queda registrado en la auditoría.
          </>
        ) : null
      }
      confirmLabel="Quitar aviso"
      danger
      pending={clear.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!target) return;
        answerInToast(
          dialog,
          clear.mutateAsync({ slug: target.slug, email: target.email }),
          () => `Aviso de ${target.email} quitado.`,
          onClose,
        );
      }}
    />
  );
}

function DepartmentField({ slug, onClear }: { slug: string; onClear: (target: ClearTarget) => void }) {
  const query = useFieldView(slug);
  if (query.isPending) return <Spinner label="Cargando el campo…" />;
  if (query.isError) return <ErrorNotice message={query.error.message} onRetry={() => query.refetch()} />;
  const view: FieldView = query.data;
  return (
    <>
      <Summary
        stuck={view.validators.filter((v) => v.stuck).length}
        minutes={view.stuckAfterMinutes}
        generatedAt={view.generatedAt}
      />
      {view.validators.length === 0 ? (
        <p className="mt-4 text-stone-700">Nadie está en la lista de este municipio.</p>
      ) : (
        <ValidatorsTable
          caption={`Validadores de ${view.title}`}
          from={view.generatedAt}
          rows={view.validators.map((v) => ({ v, slug: view.slug, title: view.title }))}
          withDepartment={false}
          onClear={onClear}
        />
      )}
      <FieldPaceTable slug={view.slug} />
    </>
  );
}

/** Every department at once: who has something waiting anywhere (the stuck first), then each department. */
function AllDepartments({ overview, onClear }: { overview: FieldOverview; onClear: (target: ClearTarget) => void }) {
  const stuck = overview.validators.filter((v) => v.stuck).length;
  const stuckIn = new Set(overview.validators.filter((v) => v.stuck).map((v) => v.slug)).size;
  return (
    <>
      <Summary
        stuck={stuck}
        minutes={overview.stuckAfterMinutes}
        generatedAt={overview.generatedAt}
        where={
          stuck === 0
            ? undefined
            : ` en ${formatCount(stuckIn)} ${stuckIn === 1 ? 'municipio o parroquia' : 'municipios o parroquias'}`
        }
      />
      <FieldMap overview={overview} />
      <h2 className="mt-6 text-xl font-bold text-stone-900">Con envíos por enviar</h2>
      {overview.validators.length === 0 ? (
        <p className="mt-2 text-stone-700">Ningún teléfono tiene envíos por enviar.</p>
      ) : (
        <ValidatorsTable
          caption="Validadores con envíos por enviar, de todos los municipios y parroquias"
          from={overview.generatedAt}
          rows={overview.validators.map((v) => ({ v, slug: v.slug, title: v.title }))}
          withDepartment
          onClear={onClear}
        />
      )}
      <h2 className="mt-6 text-xl font-bold text-stone-900">Por municipio o parroquia</h2>
      <div className="mt-4 rounded-xl border border-stone-200">
        <table role="table" className={phone.table}>
          <caption className="sr-only">Municipios y parroquias</caption>
          <thead role="rowgroup" className={phone.head}>
            <tr role="row">
              <ColumnHeader>Municipio o parroquia</ColumnHeader>
              <ColumnHeader right>Validadores</ColumnHeader>
              <ColumnHeader right>Por enviar</ColumnHeader>
              <ColumnHeader right>Atascados</ColumnHeader>
            </tr>
          </thead>
          <tbody role="rowgroup" className={phone.body}>
            {overview.departments.map((d) => (
              <tr
                role="row"
                key={d.slug}
                className={`${d.stuck ? 'bg-red-50' : 'bg-white'} ${phone.row} max-sm:grid-cols-3`}
              >
                <th role="rowheader" scope="row" className={`${phone.rowHeader} max-sm:col-span-3`}>
                  <Link to={paths.field(d.slug)} className="text-brand underline">
                    {d.title}
                  </Link>
                </th>
                <td
                  role="cell"
                  data-label="Validadores"
                  className={`${phone.cell} text-right tabular-nums max-sm:text-left`}
                >
                  {formatCount(d.validators)}
                </td>
                <td
                  role="cell"
                  data-label="Por enviar"
                  className={`${phone.cell} text-right tabular-nums max-sm:text-left ${d.waiting > 0 ? 'font-bold' : ''}`}
                >
                  {formatCount(d.waiting)}
                </td>
                <td
                  role="cell"
                  data-label="Atascados"
                  className={`${phone.cell} text-right tabular-nums max-sm:text-left ${d.stuck ? 'font-bold text-red-900' : ''}`}
                >
                  {formatCount(d.stuck)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FieldPaceTable />
    </>
  );
}

const ALL = '';

/**
 * Field view for coordinators (docs/decisions/048, 060): it opens on every department the person may
 * see, whoever is stuck first, and says all is clear only when it is in every one of them; one
 * department shows every member of its list, when their phone was last heard from, how many items wait
 * on it that the server has not received, the oldest, and its last error. It asks again every few seconds.
 * `afterClose`: what the page composing it shows above the figures once the day has closed ('Por llegar').
 */
export function FieldPage({ slug, afterClose }: { slug: string | undefined; afterClose?: ReactNode }) {
  useDocumentTitle('Campo');
  const navigate = useNavigate();
  const overview = useFieldOverview();
  useFieldLive(overview.dataUpdatedAt);
  const [clearing, setClearing] = useState<ClearTarget | null>(null);
  const list = [...(overview.data?.departments ?? [])].sort((a, b) => a.title.localeCompare(b.title, 'es'));
  return (
    <Page wide>
      <h1 className="text-3xl font-black tracking-tight text-brand">Campo</h1>
      <p className="mt-1 text-stone-700">
        Lo que espera en el teléfono de cada validador y aún no llegó. Se actualiza solo cada {FIELD_REFRESH_MS / 1000}{' '}
        segundos.
      </p>
      {overview.isPending ? (
        <Spinner />
      ) : overview.isError ? (
        <ErrorNotice message={overview.error.message} onRetry={() => overview.refetch()} />
      ) : list.length === 0 ? (
        <p className="mt-4 text-stone-700">No estás en la lista de ningún municipio o parroquia.</p>
      ) : (
        <>
          <div className="mt-4 sm:max-w-sm">
            <SelectField
              label="Municipio o parroquia"
              value={slug ?? ALL}
              onChange={(event) => navigate(paths.field(event.target.value || undefined))}
            >
              <option value={ALL}>Todos</option>
              {list.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {d.title}
                </option>
              ))}
            </SelectField>
          </div>
          {afterClose}
          {slug ? (
            <DepartmentField key={slug} slug={slug} onClear={setClearing} />
          ) : (
            <AllDepartments overview={overview.data} onClear={setClearing} />
          )}
        </>
      )}
      <ClearDialog target={clearing} onClose={() => setClearing(null)} />
    </Page>
  );
}
