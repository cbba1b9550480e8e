import { useId } from 'react';
import { useNavigate } from 'react-router';
import type { FieldValidator, FieldView } from '#shared/features/field/field';
import { formatCount } from '#shared/platform/format';
import { formatClock, formatDateTime } from '#web/platform/lib/format';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { FIELD_REFRESH_MS, useFieldDepartments, useFieldView } from '../api/get-field';

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

function ValidatorRow({ v, from }: { v: FieldValidator; from: string }) {
  return (
    <tr className={v.stuck ? 'bg-red-50' : 'bg-white'}>
      <th scope="row" className="px-3 py-2 text-left font-semibold break-all text-stone-900">
        {v.email}
        {v.stuck && (
          <span className="ml-2 inline-block rounded-full bg-red-800 px-2 py-0.5 text-xs font-bold whitespace-nowrap text-white">
            Atascado
          </span>
        )}
      </th>
      <td className="px-3 py-2">
        <When iso={v.lastSeenAt} from={from} empty="Nunca" />
      </td>
      <td className={`px-3 py-2 text-right tabular-nums ${v.waiting > 0 ? 'font-bold' : ''}`}>
        {formatCount(v.waiting)}
      </td>
      <td className={`px-3 py-2 ${v.stuck ? 'font-bold text-red-900' : ''}`}>
        <When iso={v.oldestWaitingAt} from={from} empty="—" />
      </td>
      <td className="px-3 py-2">
        {v.lastError ? (
          <>
            {v.lastError.message} <When iso={v.lastError.at} from={from} empty="" />
          </>
        ) : (
          <span className="text-stone-600">—</span>
        )}
      </td>
    </tr>
  );
}

function FieldTable({ view }: { view: FieldView }) {
  const stuck = view.validators.filter((v) => v.stuck).length;
  return (
    <>
      <p
        className={`mt-4 rounded-lg p-3 font-semibold ${stuck ? 'bg-red-100 text-red-950' : 'bg-emerald-50 text-emerald-950'}`}
      >
        {stuck === 0
          ? 'Nadie tiene envíos atascados.'
          : `${formatCount(stuck)} ${stuck === 1 ? 'validador tiene' : 'validadores tienen'} envíos esperando hace más de ${formatCount(view.stuckAfterMinutes)} min.`}{' '}
        <span className="font-normal">Actualizado a las {formatClock(new Date(view.generatedAt))}</span>
      </p>
      {view.validators.length === 0 ? (
        <p className="mt-4 text-stone-700">Nadie está en la lista de este municipio.</p>
      ) : (
        // No sideways scrolling on a phone: cells wrap (addresses break anywhere).
        <div className="mt-4 rounded-xl border border-stone-200">
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">Validadores de {view.title}</caption>
            <thead className="bg-stone-100 text-left text-stone-800">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Validador
                </th>
                <th scope="col" className="px-3 py-2">
                  Última conexión
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Por enviar
                </th>
                <th scope="col" className="px-3 py-2">
                  Más antiguo
                </th>
                <th scope="col" className="px-3 py-2">
                  Último error
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 text-stone-900">
              {view.validators.map((v) => (
                <ValidatorRow key={v.email} v={v} from={view.generatedAt} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function DepartmentField({ slug }: { slug: string }) {
  const view = useFieldView(slug);
  if (view.isPending) return <Spinner label="Cargando el campo…" />;
  if (view.isError) return <ErrorNotice message={view.error.message} onRetry={() => view.refetch()} />;
  return <FieldTable view={view.data} />;
}

/**
 * Field view for coordinators (docs/decisions/048): per validator of a department, when their phone was
 * last heard from, how many items wait on it, the oldest, and its last error; those stuck for more than
 * ten minutes first and marked. It asks again by itself every few seconds.
 */
export function FieldPage({ slug }: { slug: string | undefined }) {
  useDocumentTitle('Campo');
  const selectId = useId();
  const navigate = useNavigate();
  const departments = useFieldDepartments();
  const list = departments.data?.departments ?? [];
  const current = slug ?? list[0]?.slug;
  return (
    <Page wide>
      <h1 className="text-3xl font-black tracking-tight text-brand">Campo</h1>
      <p className="mt-1 text-stone-700">
        Lo que espera en el teléfono de cada validador. Se actualiza solo cada {FIELD_REFRESH_MS / 1000} segundos.
      </p>
      {departments.isPending ? (
        <Spinner />
      ) : departments.isError ? (
        <ErrorNotice message={departments.error.message} onRetry={() => departments.refetch()} />
      ) : list.length === 0 || !current ? (
        <p className="mt-4 text-stone-700">No estás en la lista de ningún municipio o parroquia.</p>
      ) : (
        <>
          <div className="mt-4 flex flex-col gap-1 sm:max-w-sm">
            <label htmlFor={selectId} className="font-semibold text-stone-800">
              Municipio o parroquia
            </label>
            <select
              id={selectId}
              value={current}
              onChange={(event) => navigate(paths.field(event.target.value))}
              className="rounded-lg border-2 border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 focus:border-brand focus:outline-none"
            >
              {list.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {d.title}
                </option>
              ))}
            </select>
          </div>
          <DepartmentField key={current} slug={current} />
        </>
      )}
    </Page>
  );
}
