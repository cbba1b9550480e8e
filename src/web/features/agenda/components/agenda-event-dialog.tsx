import { useEffect } from 'react';
import type { AgendaEvent } from '#shared/features/agenda/agenda';
import { agendaEventBodySchema } from '#shared/features/agenda/agenda.admin';
import { buttonClass } from '#web/platform/ui/back-office';
import { TextAreaField, TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';

export interface AgendaEventDraft {
  fecha: string;
  hora24h: string;
  descripcion: string;
  lugar: string;
}

export interface AgendaEventDialogProps {
  open: boolean;
  /** The event being edited, or null to create one on `day`. */
  event: AgendaEvent | null;
  day: string;
  /** A message from the server to show in the form. */
  serverError?: string;
  /** Sends the event; the dialog sends nothing else until the returned promise settles. */
  onSave: (draft: ReturnType<typeof agendaEventBodySchema.parse>) => Promise<unknown>;
  onClose: () => void;
}

const draftOf = (event: AgendaEvent | null, day: string): AgendaEventDraft => ({
  fecha: event?.fecha ?? day,
  hora24h: event?.hora24h ?? '',
  descripcion: event?.descripcion ?? '',
  lugar: event?.lugar ?? '',
});

/** Creates or edits an event: date, 24-hour time, description and place. */
export function AgendaEventDialog({ open, event, day, serverError, onSave, onClose }: AgendaEventDialogProps) {
  const form = useDraftForm(agendaEventBodySchema, () => draftOf(event, day));
  const { reset, field } = form;
  useEffect(() => {
    if (open) reset(draftOf(event, day));
  }, [open, event, day, reset]);

  return (
    <Modal open={open} onClose={onClose} title={event ? 'Editar evento' : 'Nuevo evento'} testId="agenda-event-dialog">
      <form noValidate onSubmit={form.submit(onSave)} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Fecha" type="date" required {...field('fecha')} />
          <TextField
            label="Hora (24 horas)"
            hint="Formato HH:MM, por ejemplo 07:30 o 18:45."
            placeholder="18:30"
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            required
            // The day is already the one on screen: the form starts at the time.
            autoFocus
            {...field('hora24h')}
          />
        </div>
        <TextAreaField label="Descripción" required maxLength={500} rows={3} {...field('descripcion')} />
        <TextField label="Lugar" hint="Opcional." maxLength={300} autoComplete="off" {...field('lugar')} />
        {serverError && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
            {serverError}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Guardando…">
            {event ? 'Guardar cambios' : 'Crear evento'}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
