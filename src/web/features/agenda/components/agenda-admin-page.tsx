import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AgendaEvent } from '#shared/features/agenda/agenda';
import { agendaCopyBodySchema } from '#shared/features/agenda/agenda.admin';
import { addDays, dateInTimeZone, formatCount, formatHour12, spanishDayTitle } from '#shared/platform/format';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { badgeClass, buttonClass, cardClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { ConfirmDialog, Modal } from '#web/platform/ui/modal';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { answerInToast, showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useCopyAgendaDay } from '../api/copy-agenda-day';
import { useCreateAgendaEvent } from '../api/create-agenda-event';
import { useDeleteAgendaEvent } from '../api/delete-agenda-event';
import { useAgendaEvents } from '../api/get-agenda-events';
import { useAgendaToday } from '../api/get-agenda-today';
import { useUpdateAgendaEvent } from '../api/update-agenda-event';
import { AgendaEventDialog } from './agenda-event-dialog';

/** Days ahead listed under "Próximos días". */
const AHEAD_DAYS = 30;

/** 'DOMINGO, 22 NOV' with the year when it is not this one. */
const dayLabel = (day: string, today: string) =>
  `${spanishDayTitle(day)}${day.slice(0, 4) === today.slice(0, 4) ? '' : ` ${day.slice(0, 4)}`}`;
const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

type Dialog =
  | { kind: 'none' }
  | { kind: 'event'; event: AgendaEvent | null }
  | { kind: 'delete'; event: AgendaEvent }
  | { kind: 'copy' };

/**
 * The agenda editor: one day at a time (the public page shows today), its events by time, and the days
 * ahead that have events. Create, edit, delete, and copy a day's events to another day.
 */
export default function AgendaAdminPage() {
  useDocumentTitle('Agenda · Administración');
  // "Today" is the server's (America/Caracas), as on the public page; the browser's clock meanwhile.
  const today = useAgendaToday().data?.date ?? dateInTimeZone(new Date());
  const [chosen, setDay] = useState<string | null>(null);
  const day = chosen ?? today;
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [serverError, setServerError] = useState<string>();
  const events = useAgendaEvents(day, addDays(day, AHEAD_DAYS));
  const create = useCreateAgendaEvent(showsOwnError);
  const update = useUpdateAgendaEvent(showsOwnError);
  const remove = useDeleteAgendaEvent();
  // Each dialog can be closed while its request travels; its answer then comes as a toast.
  const eventDialog = useDialogOpening(dialog.kind === 'event');
  const deleteDialog = useDialogOpening(dialog.kind === 'delete');

  const all = events.data?.events ?? [];
  const ofDay = all.filter((e) => e.fecha === day);
  const ahead = [...new Set(all.filter((e) => e.fecha > day).map((e) => e.fecha))].map((d) => ({
    day: d,
    count: all.filter((e) => e.fecha === d).length,
  }));
  const close = () => {
    setDialog({ kind: 'none' });
    setServerError(undefined);
  };

  return (
    <section aria-labelledby="agenda-admin-titulo" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="agenda-admin-titulo" className="text-2xl font-bold text-stone-900">
            Agenda
          </h2>
          <p className="text-stone-700">La agenda pública muestra los eventos de hoy en cuanto los guardas.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => setDialog({ kind: 'event', event: null })}
          >
            Nuevo evento
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={ofDay.length === 0}
            onClick={() => setDialog({ kind: 'copy' })}
          >
            Copiar día
          </button>
        </div>
      </div>

      <DayPicker day={day} today={today} onChange={setDay} />

      <div className="grid gap-5 lg:grid-cols-[1fr_18rem]">
        <div>
          <h3 className="mb-3 flex flex-wrap items-center gap-2 text-lg font-bold text-stone-900" aria-live="polite">
            <span data-testid="agenda-admin-day">{dayLabel(day, today)}</span>
            {day === today && <span className={badgeClass.brand}>Hoy</span>}
            {!events.isPending && (
              <span className={badgeClass.neutral}>{plural(ofDay.length, 'evento', 'eventos')}</span>
            )}
          </h3>
          {events.isPending ? (
            <Spinner label="Cargando la agenda…" />
          ) : events.isError ? (
            <ErrorNotice message={events.error.message} onRetry={() => events.refetch()} />
          ) : ofDay.length === 0 ? (
            <p className="rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-600">
              No hay eventos este día.
            </p>
          ) : (
            <ul className="flex flex-col gap-3" aria-label={`Eventos del ${dayLabel(day, today)}`}>
              {ofDay.map((event) => (
                <li key={event.id}>
                  <EventCard
                    event={event}
                    onEdit={() => setDialog({ kind: 'event', event })}
                    onDelete={() => setDialog({ kind: 'delete', event })}
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
        <aside aria-labelledby="agenda-proximos" className={`${cardClass} h-fit`}>
          <h3 id="agenda-proximos" className="font-bold text-stone-900">
            Próximos días con eventos
          </h3>
          {ahead.length === 0 ? (
            <p className="mt-2 text-sm text-stone-600">Ninguno en los próximos {AHEAD_DAYS} días.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-1">
              {ahead.map((a) => (
                <li key={a.day}>
                  <button
                    type="button"
                    onClick={() => setDay(a.day)}
                    className="flex w-full min-h-10 items-center justify-between gap-2 rounded-lg px-2 py-1 text-left hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand"
                  >
                    <span className="font-semibold text-stone-800">{dayLabel(a.day, today)}</span>
                    <span className="text-sm text-stone-600">{plural(a.count, 'evento', 'eventos')}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>

      <AgendaEventDialog
        open={dialog.kind === 'event'}
        event={dialog.kind === 'event' ? dialog.event : null}
        day={day}
        serverError={serverError}
        onClose={close}
        onSave={(body) => {
          const editing = dialog.kind === 'event' ? dialog.event : null;
          const sentFrom = eventDialog.opening;
          const done = {
            onSuccess: (result: { message: string; event: AgendaEvent }) => {
              toast.success(result.message);
              if (!eventDialog.isShowing(sentFrom)) return;
              close();
              setDay(result.event.fecha);
            },
            onError: (error: Error) => showErrorFrom(eventDialog, sentFrom, error, setServerError),
          };
          return editing
            ? update.mutateAsync({ id: editing.id, ...body }).then(done.onSuccess, done.onError)
            : create.mutateAsync(body).then(done.onSuccess, done.onError);
        }}
      />

      <ConfirmDialog
        open={dialog.kind === 'delete'}
        title="Eliminar evento"
        message={
          dialog.kind === 'delete' ? (
            <>
              ¿Eliminar «{dialog.event.descripcion ?? 'Sin descripción'}» de las {dialog.event.hora24h ?? '--:--'}? Deja
              de mostrarse en la agenda pública al instante.
            </>
          ) : null
        }
        confirmLabel="Eliminar"
        danger
        pending={remove.isPending}
        onCancel={close}
        onConfirm={() => {
          if (dialog.kind !== 'delete') return;
          answerInToast(deleteDialog, remove.mutateAsync(dialog.event.id), (result) => result.message, close);
        }}
      />

      <CopyDayDialog
        open={dialog.kind === 'copy'}
        from={day}
        today={today}
        count={ofDay.length}
        onClose={close}
        onCopied={(to) => {
          close();
          setDay(to);
        }}
      />
    </section>
  );
}

function DayPicker({ day, today, onChange }: { day: string; today: string; onChange: (day: string) => void }) {
  return (
    <div className={`${cardClass} flex flex-col gap-1.5 sm:w-fit`}>
      <label htmlFor="agenda-dia" className={labelClass}>
        Día
      </label>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => onChange(addDays(day, -1))}
          aria-label="Día anterior"
        >
          <span aria-hidden="true">‹</span>
        </button>
        <input
          id="agenda-dia"
          type="date"
          className={`${inputClass} min-w-0 flex-1 sm:w-44 sm:flex-none`}
          value={day}
          onChange={(e) => {
            if (e.target.value) onChange(e.target.value);
          }}
        />
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => onChange(addDays(day, 1))}
          aria-label="Día siguiente"
        >
          <span aria-hidden="true">›</span>
        </button>
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => onChange(today)}
          disabled={day === today}
        >
          Hoy
        </button>
      </div>
    </div>
  );
}

function EventCard({ event, onEdit, onDelete }: { event: AgendaEvent; onEdit: () => void; onDelete: () => void }) {
  const label = event.descripcion ?? 'Sin descripción';
  return (
    <article className={`${cardClass} flex flex-col gap-3 sm:flex-row sm:items-start`} aria-label={label}>
      <div className="flex shrink-0 flex-col sm:w-24">
        <span className="text-xl font-black tabular-nums text-brand">{event.hora24h ?? '--:--'}</span>
        <span className="text-sm text-stone-600">{formatHour12(event.hora24h) ?? 'Hora no válida'}</span>
      </div>
      <div className="min-w-0 flex-1">
        <p className="font-semibold break-words text-stone-900">{label}</p>
        <p className="text-stone-700 break-words">{event.lugar ?? 'Sin lugar'}</p>
      </div>
      <div className="flex gap-2">
        <button type="button" className={buttonClass.small} onClick={onEdit} aria-label={`Editar: ${label}`}>
          Editar
        </button>
        <button type="button" className={buttonClass.small} onClick={onDelete} aria-label={`Eliminar: ${label}`}>
          Eliminar
        </button>
      </div>
    </article>
  );
}

function CopyDayDialog({
  open,
  from,
  today,
  count,
  onClose,
  onCopied,
}: {
  open: boolean;
  from: string;
  today: string;
  count: number;
  onClose: () => void;
  onCopied: (to: string) => void;
}) {
  const form = useDraftForm(agendaCopyBodySchema, () => ({ to: addDays(from, 1) }), {
    body: ({ to }) => ({ from, to }),
  });
  const { errors, field } = form;
  const copy = useCopyAgendaDay(showsOwnError);
  const shown = useDialogOpening(open);
  const [lastOpen, setLastOpen] = useState(false);
  if (open !== lastOpen) {
    setLastOpen(open);
    if (open) form.reset({ to: addDays(from, 1) });
  }
  // Whatever is wrong (the server's answer too) shows under the one field.
  const error = errors.to ?? Object.values(errors)[0];
  const submit = form.submit((body) => {
    const sentFrom = shown.opening;
    return copy.mutateAsync(body).then(
      (result) => {
        toast.success(result.message);
        if (shown.isShowing(sentFrom)) onCopied(body.to);
      },
      (err: Error) => showErrorFrom(shown, sentFrom, err, (message) => form.showErrors({ to: message })),
    );
  });
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Copiar día"
      description={`${count === 1 ? 'Copia el evento' : `Copia los ${formatCount(count)} eventos`} del ${dayLabel(from, today)} a otro día. Los que ese día ya tiene no se repiten.`}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField label="Copiar al día" type="date" autoFocus {...field('to')} error={error} />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Copiando…">
            Copiar eventos
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
