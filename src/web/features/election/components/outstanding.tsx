import { useQueryClient } from '@tanstack/react-query';
import { electionMessages, type Outstanding as OutstandingAnswer } from '#shared/features/election/election';
import { countOf, formatCount } from '#shared/platform/format';
import { formatDateTime } from '#web/platform/lib/format';
import { adminKeys } from '#web/platform/lib/query-keys';
import { useLiveChanges } from '#web/platform/lib/use-live-changes';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { outstandingKey, useOutstanding } from '../api/get-outstanding';
import { useElectionDay } from './day-status';

/** What a vote or a photo slot is called where people read it. */
export const ITEM_KIND_LABELS: Record<string, string> = {
  vote: 'Voto',
  gobernador: 'Foto Gobernador',
  an: 'Foto AN',
  clez: 'Foto CLEZ',
};

/** 'Voto de Ana Pérez (trámite 7)': an item named by its record, as validators see it on its card. */
export const itemName = (kind: string, record: string, recordId: number) =>
  `${ITEM_KIND_LABELS[kind] ?? kind} de ${record || 'un trámite sin nombre'} (trámite ${recordId})`;

/** The answer, of one department only when `slug` is given. */
export function outstandingOf(answer: OutstandingAnswer, slug?: string): OutstandingAnswer {
  if (!slug) return answer;
  const departments = answer.departments.filter((d) => d.slug === slug);
  const listed = departments.reduce((sum, d) => sum + d.validators.reduce((n, v) => n + v.items.length, 0), 0);
  return { ...answer, departments, total: listed };
}

/**
 * 'Por llegar' (decision 101): after the close, every vote and photo a phone reported before it that has
 * not arrived, by municipality or parish and validator, with the end of the grace. It follows the live
 * stream (each arrival asks again at once) where its person may open it, and asks every few seconds
 * anyway. Nothing before the close. `slug`: one department only (Campo's view of one).
 */
export function Outstanding({ slug, className = 'mt-6' }: { slug?: string | undefined; className?: string }) {
  const day = useElectionDay({ everySecond: false });
  const query = useOutstanding(day.closedAt);
  const queryClient = useQueryClient();
  const session = useSession();
  const mayWatch = Boolean(
    day.closedAt && session.data?.user && session.data.menu.some((e) => e.path === paths.resultados),
  );
  useLiveChanges(mayWatch, () => {
    void queryClient.refetchQueries({ queryKey: outstandingKey, type: 'active' });
    // Jornada's list of late arrivals moves with the same arrivals.
    void queryClient.refetchQueries({ queryKey: adminKeys.election(), type: 'active' });
  });
  if (!day.closedAt) return null;
  return (
    <section
      aria-labelledby="por-llegar-titulo"
      className={`${className} rounded-xl border-2 border-stone-900 bg-white p-4 text-stone-900`}
      data-testid="por-llegar"
    >
      <h2 id="por-llegar-titulo" className="text-xl font-bold">
        Por llegar
      </h2>
      {query.isPending ? (
        <Spinner label="Cargando lo que falta por llegar…" />
      ) : query.isError ? (
        <ErrorNotice message={query.error.message} onRetry={() => query.refetch()} />
      ) : (
        <OutstandingList answer={outstandingOf(query.data, slug)} />
      )}
    </section>
  );
}

function OutstandingList({ answer }: { answer: OutstandingAnswer }) {
  const graceOver = answer.graceEndsAt !== null && answer.generatedAt >= answer.graceEndsAt;
  const listed = answer.departments.reduce((sum, d) => sum + d.validators.reduce((n, v) => n + v.items.length, 0), 0);
  return (
    <>
      {answer.graceEndsAt && (
        <p className="mt-1 font-semibold" data-testid="por-llegar-gracia">
          {graceOver ? electionMessages.graceOver(answer.graceEndsAt) : electionMessages.graceUntil(answer.graceEndsAt)}
        </p>
      )}
      {!graceOver && (
        <p className="mt-1" role="status">
          {answer.total === 0
            ? electionMessages.outstandingNone
            : `${countOf(answer.total, 'envío avisado antes del cierre aún no ha llegado', 'envíos avisados antes del cierre aún no han llegado')}.`}
          {listed < answer.total ? ` Se muestran los primeros ${formatCount(listed)}.` : ''}
        </p>
      )}
      {answer.departments.map((d) => (
        <div key={d.slug} className="mt-4">
          <h3 className="text-lg font-bold">{d.title}</h3>
          <ul className="mt-1 flex flex-col gap-3">
            {d.validators.map((v) => (
              <li key={v.email}>
                <p className="font-semibold break-all">
                  {v.email}: {countOf(v.items.length, 'envío', 'envíos')}
                </p>
                <ul className="mt-1 list-disc pl-6" aria-label={`Por llegar de ${v.email} en ${d.title}`}>
                  {v.items.map((i) => (
                    <li key={`${i.kind}-${i.recordId}`} data-testid="por-llegar-envio">
                      {itemName(i.kind, i.record, i.recordId)}
                      <span className="text-stone-700"> · avisado el {formatDateTime(i.heardAt)}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
