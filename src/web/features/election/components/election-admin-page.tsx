import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import {
  copyIsLate,
  copyStateText,
  ELECTION_PHASE_LABELS,
  ELECTION_PHASES,
  type ElectionAdmin,
  type ElectionPhase,
  type ElectionPhaseBody,
  electionCloseBodySchema,
  electionMessages,
  electionPhaseBodySchema,
} from '#shared/features/election/election';
import { countOf, formatCount, formatTime } from '#shared/platform/format';
import { instantToWallTime } from '#shared/platform/wall-time';
import { formatDateTime } from '#web/platform/lib/format';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { buttonClass, cardClass } from '#web/platform/ui/back-office';
import { SelectField, TextAreaField, TextField } from '#web/platform/ui/fields';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useChangeElectionPhase } from '../api/change-election-phase';
import { useEndDrill } from '../api/end-drill';
import { useElectionAdmin } from '../api/get-election-admin';
import { useElectionCopy } from '../api/get-election-copy';
import { useScheduleElectionClose } from '../api/schedule-election-close';
import { itemName, Outstanding } from './outstanding';

/** Jornada: the day's phase, the close, the drill's end and what arrived after the close. Admins only. */
export default function ElectionAdminPage() {
  useDocumentTitle('Jornada · Administración');
  const election = useElectionAdmin();
  if (election.isPending) return <Spinner />;
  if (election.isError) return <ErrorNotice message={election.error.message} onRetry={() => election.refetch()} />;
  const day = election.data;
  return (
    <section aria-labelledby="jornada-titulo" className="flex max-w-3xl flex-col gap-4">
      <h2 id="jornada-titulo" className="text-2xl font-bold text-stone-900">
        Jornada
      </h2>
      <DayStatus day={day} />
      {day.closedAt && <Outstanding className="" />}
      <OffMachineCopy />
      {day.phase === 'simulacro' && day.drill && <EndDrill votes={day.drill.votes} photos={day.drill.photos} />}
      <PhaseForm day={day} onRefresh={() => void election.refetch()} />
      <CloseForm day={day} />
      <LateArrivals day={day} />
    </section>
  );
}

function DayStatus({ day }: { day: ElectionAdmin }) {
  return (
    <div className={cardClass}>
      <p className="text-lg">
        Fase actual: <strong>{ELECTION_PHASE_LABELS[day.phase]}</strong>
      </p>
      {day.closedAt && <p>{electionMessages.closedAt(day.closedAt)}</p>}
      {!day.closedAt && day.closesAt && <p>Cierre previsto: {formatDateTime(day.closesAt)} (hora de Caracas).</p>}
      <p className="text-sm text-stone-700">
        Horas de gracia tras el cierre: {day.graceHours}. Último cambio:{' '}
        {day.changedAt ? `${formatDateTime(day.changedAt)}, ${day.changedBy ?? 'sistema'}` : 'ninguno'}
        {day.reason ? ` («${day.reason}»)` : ''}.
      </p>
    </div>
  );
}

/**
 * The off-machine copy and its lag (decision 106): what a lost server would take with it. Red past a
 * minute. Its own request, asked again while the page is open.
 */
function OffMachineCopy() {
  const copy = useElectionCopy();
  if (!copy.data) return null;
  const late = copyIsLate(copy.data);
  return (
    <div
      role="status"
      className={`rounded-lg border p-3 ${late ? 'border-red-700 bg-red-50 font-semibold text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}
    >
      <p>{copyStateText(copy.data)}</p>
    </div>
  );
}

/**
 * No phase is chosen in advance: closing the day must never be one click away (and before the day it is
 * under way that comes next, not the close).
 */
const phaseDraft = () => ({ phase: '' as ElectionPhase | '', reason: '' });

const closeDraft = (closesAt: string | null, graceHours: number) => ({
  closesAt: closesAt ? instantToWallTime(closesAt) : '',
  graceHours: String(graceHours),
  reason: '',
});

function PhaseForm({ day, onRefresh }: { day: ElectionAdmin; onRefresh: () => void }) {
  const form = useDraftForm(electionPhaseBodySchema, phaseDraft);
  const { draft, errors, field, reset } = form;
  const change = useChangeElectionPhase(showsOwnError);
  // The close by hand is asked twice, with the counts, before it is sent (as the drill's end is).
  const [closing, setClosing] = useState<{ step: 1 | 2; reason: string } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new phase starts the form again, with nothing chosen
  useEffect(() => reset(phaseDraft()), [day.phase, reset]);
  const reopening = day.phase === 'cerrada' && draft.phase === 'en_curso';
  const send = (body: ElectionPhaseBody) =>
    change.mutateAsync(body).then(
      (status) => toast.success(electionMessages.phaseChanged(ELECTION_PHASE_LABELS[status.phase])),
      (e: Error) => form.showErrors({ form: e.message }),
    );
  const submitBody = form.submit((body) => {
    if (body.phase !== 'cerrada') return send(body);
    onRefresh();
    setClosing({ step: 1, reason: body.reason });
  });
  const submit = (event: FormEvent) => {
    if (draft.phase !== '') return submitBody(event);
    event.preventDefault();
    form.showErrors({ phase: electionMessages.phaseRequired });
  };
  const what = `${formatCount(day.received.votes)} votos y ${formatCount(day.received.photos)} fotos`;
  return (
    <form noValidate onSubmit={submit} className={`${cardClass} flex flex-col gap-4`} aria-label="Cambiar de fase">
      <h3 className="text-lg font-bold text-stone-900">Cambiar de fase</h3>
      <SelectField label="Nueva fase" {...field('phase')}>
        <option value="" disabled>
          Elige la nueva fase
        </option>
        {ELECTION_PHASES.filter((p) => p !== day.phase).map((p) => (
          <option key={p} value={p}>
            {ELECTION_PHASE_LABELS[p]}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="Motivo"
        {...field('reason')}
        maxLength={500}
        hint="Queda en la auditoría con tu nombre y la hora."
      />
      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
          {errors.form}
        </p>
      )}
      <div>
        <SubmitButton sending={form.sending} sendingLabel="Cambiando…">
          {reopening ? 'Reabrir la jornada' : 'Cambiar fase'}
        </SubmitButton>
      </div>
      <ConfirmDialog
        open={closing?.step === 1}
        title="Cerrar la jornada"
        message={
          `Hasta ahora se recibieron ${what}. Al cerrar no se reciben votos ni fotos nuevos; lo que los ` +
          `teléfonos avisaron que tenían antes del cierre se acepta durante ${day.graceHours} horas de gracia.`
        }
        confirmLabel="Continuar"
        danger
        onCancel={() => setClosing(null)}
        onConfirm={() => setClosing((c) => (c ? { ...c, step: 2 } : c))}
      />
      <ConfirmDialog
        open={closing?.step === 2}
        title="¿Cerrar la jornada ahora?"
        message={`Última confirmación: la jornada cierra ahora con ${what}. Para reabrirla hará falta un motivo.`}
        confirmLabel={`Cerrar con ${what}`}
        danger
        pending={change.isPending}
        onCancel={() => setClosing(null)}
        onConfirm={() => {
          const reason = closing?.reason ?? '';
          void send({ phase: 'cerrada', reason }).finally(() => setClosing(null));
        }}
      />
    </form>
  );
}

function CloseForm({ day }: { day: ElectionAdmin }) {
  const form = useDraftForm(electionCloseBodySchema, () => closeDraft(day.closesAt, day.graceHours), {
    body: (draft) => ({
      ...draft,
      closesAt: draft.closesAt.trim() === '' ? null : draft.closesAt.trim(),
      graceHours: draft.graceHours.trim() === '' ? Number.NaN : Number(draft.graceHours.trim()),
    }),
  });
  const { errors, field, reset } = form;
  const save = useScheduleElectionClose(showsOwnError);
  useEffect(() => reset(closeDraft(day.closesAt, day.graceHours)), [day.closesAt, day.graceHours, reset]);
  const submit = form.submit((body) =>
    save.mutateAsync(body).then(
      () => toast.success(electionMessages.closeScheduled),
      (e: Error) => form.showErrors({ form: e.message }),
    ),
  );
  return (
    <form noValidate onSubmit={submit} className={`${cardClass} flex flex-col gap-4`} aria-label="Hora de cierre">
      <h3 className="text-lg font-bold text-stone-900">Hora de cierre</h3>
      <TextField
        label="Cierre (hora de Caracas)"
        type="datetime-local"
        {...field('closesAt')}
        hint="Desde esa hora no se reciben votos ni fotos nuevos. Déjalo vacío para cerrar a mano."
      />
      <TextField
        label="Horas de gracia"
        inputMode="numeric"
        {...field('graceHours')}
        hint="Lo que un teléfono avisó que tenía antes del cierre se acepta durante estas horas."
      />
      <TextAreaField label="Motivo" {...field('reason')} maxLength={500} />
      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
          {errors.form}
        </p>
      )}
      <div>
        <SubmitButton sending={form.sending} sendingLabel="Guardando…">
          Guardar cierre
        </SubmitButton>
      </div>
    </form>
  );
}

/** 'Terminar simulacro': asks twice, saying what goes, then erases the drill. */
function EndDrill({ votes, photos }: { votes: number; photos: number }) {
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const end = useEndDrill();
  const what = `${countOf(votes, 'voto', 'votos')} y ${countOf(photos, 'foto', 'fotos')}`;
  const close = () => setStep(0);
  return (
    <div className={`${cardClass} flex flex-col gap-3 border-amber-400`}>
      <h3 className="text-lg font-bold text-stone-900">Simulacro</h3>
      <p>
        El simulacro tiene {what}. Al terminarlo se borran todos (con sus archivos) y la jornada vuelve a Preparación.
      </p>
      <div>
        <button type="button" className={buttonClass.danger} onClick={() => setStep(1)}>
          Terminar simulacro
        </button>
      </div>
      <ConfirmDialog
        open={step === 1}
        title="Terminar simulacro"
        message={`Se borrarán ${what} del simulacro. Los registros y los resultados vuelven a como estaban antes.`}
        confirmLabel="Continuar"
        danger
        onCancel={close}
        onConfirm={() => {
          const ok = reason.trim().length >= 3;
          setReasonError(ok ? undefined : electionMessages.reasonRequired);
          if (ok) setStep(2);
        }}
      >
        <TextField
          label="Motivo"
          value={reason}
          error={reasonError}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
        />
      </ConfirmDialog>
      <ConfirmDialog
        open={step === 2}
        title="¿Borrar el simulacro?"
        message={`Última confirmación: ${what} se borran y no se pueden recuperar.`}
        confirmLabel={`Borrar ${what}`}
        danger
        pending={end.isPending}
        onCancel={close}
        onConfirm={() =>
          end.mutate(
            { votes, photos, reason },
            {
              onSuccess: (result) => {
                toast.success(result.message);
                close();
              },
              onError: close,
            },
          )
        }
      />
    </div>
  );
}

function LateArrivals({ day }: { day: ElectionAdmin }) {
  if (!day.closedAt) return null;
  return (
    <div className={cardClass}>
      {day.closeStamp && (
        <p className="mb-2">
          {day.closeStamp.stampedAt
            ? electionMessages.closeStamped(day.closeStamp.stampedAt)
            : electionMessages.closeStampPending}
        </p>
      )}
      <h3 className="text-lg font-bold text-stone-900">
        Llegaron después del cierre de las {formatTime(new Date(day.closedAt))}: {formatCount(day.lateArrivals)}
      </h3>
      {day.late.length > 0 && (
        <ul className="mt-2 flex flex-col gap-1">
          {day.late.map((l) => (
            <li key={`${l.kind}-${l.recordId}-${l.at}`} data-testid="llegada-tardia">
              {itemName(l.kind, l.record, l.recordId)} · {l.title} · enviado por {l.by} · {formatDateTime(l.at)} —{' '}
              <em>{electionMessages.lateLabel}</em>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
