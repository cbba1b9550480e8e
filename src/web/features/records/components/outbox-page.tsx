import { useState } from 'react';
import { Link } from 'react-router';
import { validationTitle } from '#shared/features/records/records';
import { dayAndTime, formatCount } from '#shared/platform/format';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { buttonClass } from '#web/platform/ui/back-office';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { Page, Spinner } from '#web/platform/ui/page';
import { deviceOutbox } from '../outbox/device-outbox';
import { isWaiting, mayRetryRefusal, type OutboxItem } from '../outbox/outbox-item';
import { itemLabel, itemStateClass, stateLabel, voteChoice } from '../outbox/outbox-labels';
import { useOutbox, useOutboxViewer } from '../outbox/use-outbox';

const when = (ms: number) => {
  const { day, time } = dayAndTime(new Date(ms).toISOString());
  return `${day}, ${time}`;
};

function ItemRow({
  item,
  progress,
  onRemove,
}: {
  item: OutboxItem;
  progress: number | undefined;
  onRemove: (item: OutboxItem) => void;
}) {
  const what = `${itemLabel(item)}${item.kind === 'vote' ? ` (${voteChoice(item.candidates)})` : ''}`;
  // A photo can always be taken out before it leaves; a vote only once the server refused it.
  const removable =
    item.state !== 'sending' && item.state !== 'sent' && (item.kind === 'photo' || item.state === 'rejected');
  // A refusal that can never succeed (already voted, voided by the coordination) offers only 'Quitar'.
  const retriable = mayRetryRefusal(item) || (item.state === 'saved' && item.attempts > 0);
  return (
    <li
      className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm"
      aria-label={`${what}: ${item.recordName}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-bold text-stone-900">{what}</p>
        <span className={`rounded-full px-2 py-0.5 text-sm font-semibold tabular-nums ${itemStateClass(item)}`}>
          {stateLabel(item, progress)}
        </span>
      </div>
      <p className="mt-1 text-stone-800">
        <Link
          to={paths.validation(item.slug)}
          className="font-semibold underline decoration-stone-300 underline-offset-4 hover:text-brand"
        >
          {item.recordName}
        </Link>
        <span className="text-stone-700"> · {validationTitle(item.slug)}</span>
      </p>
      <p className="mt-1 text-sm text-stone-700">Guardado el {when(item.createdAt)}</p>
      {item.resent && item.state !== 'sent' && (
        <p className="mt-1 text-sm text-stone-700">
          El servidor se restauró desde su copia y no lo tenía: se vuelve a enviar solo.
        </p>
      )}
      {item.state === 'saved' && item.lastError && (
        <p className="mt-1 text-sm text-stone-700">
          Intento {formatCount(item.attempts)} sin respuesta ({item.lastError}). Se volverá a intentar solo.
        </p>
      )}
      {item.state === 'rejected' && item.rejection && (
        <p className="mt-1 text-sm font-medium text-red-800">{item.rejection.message}</p>
      )}
      {(retriable || removable) && (
        <div className="mt-3 flex flex-wrap gap-2">
          {retriable && (
            <button
              type="button"
              className={buttonClass.small}
              onClick={() => void deviceOutbox().retry(item.seq)}
              aria-label={`Reintentar: ${what} de ${item.recordName}`}
            >
              Reintentar
            </button>
          )}
          {removable && (
            <button
              type="button"
              className={buttonClass.small}
              onClick={() => onRemove(item)}
              aria-label={`Quitar: ${what} de ${item.recordName}`}
            >
              Quitar
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The votes and photos kept on this phone by the person using it: what still waits (with 'Reintentar'
 * and, for a photo, 'Quitar'), what the server refused and why, and what arrived today. Another
 * person's items stay stored, unnamed, until that person signs in here again.
 */
export function OutboxPage() {
  useDocumentTitle('Envíos');
  const snapshot = useOutbox();
  const viewer = useOutboxViewer();
  const { progress, loaded } = snapshot;
  const items = snapshot.items.filter((i) => i.owner === viewer);
  const othersWaiting = snapshot.items.filter((i) => i.owner !== viewer && isWaiting(i)).length;
  const [removing, setRemoving] = useState<OutboxItem | null>(null);
  const waiting = items.filter(isWaiting);
  const rejected = items.filter((i) => i.state === 'rejected');
  const sent = items.filter((i) => i.state === 'sent').reverse();
  const row = (item: OutboxItem) => (
    <ItemRow key={item.seq} item={item} progress={progress.get(item.seq)} onRemove={setRemoving} />
  );

  return (
    <Page>
      <h1 className="text-3xl font-black tracking-tight text-brand">Envíos</h1>
      <p className="mt-2 text-stone-700">
        Cada voto y cada foto se guarda primero en este teléfono y se envía solo, en orden, cuando hay conexión.
      </p>
      {!loaded ? (
        <Spinner />
      ) : (
        <>
          <section aria-labelledby="envios-pendientes" className="mt-6">
            <h2 id="envios-pendientes" className="text-xl font-bold text-stone-900">
              Por enviar ({formatCount(waiting.length)})
            </h2>
            {waiting.length === 0 ? (
              <p className="mt-2 rounded-xl border border-dashed border-stone-300 bg-white p-4 text-stone-700">
                No hay nada esperando en este teléfono.
              </p>
            ) : (
              <ul className="mt-3 flex flex-col gap-3">{waiting.map(row)}</ul>
            )}
          </section>
          {othersWaiting > 0 && (
            <p className="mt-3 text-stone-700" data-testid="envios-de-otra-cuenta">
              {othersWaiting === 1
                ? 'Además, 1 voto o foto de otra cuenta espera en este teléfono'
                : `Además, ${formatCount(othersWaiting)} votos o fotos de otra cuenta esperan en este teléfono`}
              : se enviarán cuando esa persona vuelva a entrar aquí.
            </p>
          )}
          {rejected.length > 0 && (
            <section aria-labelledby="envios-rechazados" className="mt-8">
              <h2 id="envios-rechazados" className="text-xl font-bold text-stone-900">
                Rechazados ({formatCount(rejected.length)})
              </h2>
              <ul className="mt-3 flex flex-col gap-3">{rejected.map(row)}</ul>
            </section>
          )}
          {sent.length > 0 && (
            <section aria-labelledby="envios-enviados" className="mt-8">
              <h2 id="envios-enviados" className="text-xl font-bold text-stone-900">
                Enviados ({formatCount(sent.length)})
              </h2>
              <p className="mt-2 text-stone-700">
                «Enviado»: el servidor lo tiene. «Asegurado»: también está en la copia fuera del servidor. Este teléfono
                guarda cada envío hasta que queda asegurado, por si el servidor se pierde.
              </p>
              <ul className="mt-3 flex flex-col gap-3">{sent.map(row)}</ul>
            </section>
          )}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing?.kind === 'photo' ? '¿Quitar esta foto?' : '¿Quitar este voto?'}
        message={`${removing ? itemLabel(removing) : ''} de ${removing?.recordName ?? ''}: no se enviará y se borrará de este teléfono.`}
        confirmLabel="Quitar"
        danger
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void deviceOutbox().remove(removing.seq);
          setRemoving(null);
        }}
      />
    </Page>
  );
}
