import { type ReactNode, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import {
  type RecordAdmin,
  restoreRecordBodySchema,
  type VoteCorrectionConflict,
} from '#shared/features/records-admin/records-admin';
import { ApiError } from '#web/platform/lib/api-client';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { TextAreaField } from '#web/platform/ui/fields';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { Spinner } from '#web/platform/ui/page';
import { type DialogOpening, showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useCorrectVote } from '../api/correct-vote';
import { useCandidates } from '../api/get-candidates';
import { useRestoreRecord } from '../api/restore-record';
import { useVoidRecord } from '../api/void-record';

/** A change of a record that moves the results or the lists: what to do, and why (required). */
type Change = { kind: 'void' | 'restore' | 'vote'; record: RecordAdmin };
export type RecordChange = Change | null;

const choiceClass =
  'flex min-h-11 cursor-pointer items-start gap-3 rounded-lg border-2 border-stone-300 bg-white px-3 py-2 text-stone-900 has-checked:border-brand has-checked:bg-brand-light has-focus-visible:outline-2 has-focus-visible:outline-brand';

/** What every change is checked for before it is sent: its reason (restoring needs nothing else). */
const changeReasonSchema = restoreRecordBodySchema;

const votesText = (record: RecordAdmin) => (record.votes.length > 0 ? record.votes.join(', ') : 'ningún candidato');

/** The three requests of a change, kept while its dialog closes and opens again. */
interface ChangeRequests {
  voiding: ReturnType<typeof useVoidRecord>;
  restoring: ReturnType<typeof useRestoreRecord>;
  correcting: ReturnType<typeof useCorrectVote>;
  shown: DialogOpening;
}

/**
 * One dialog per change: voiding (does its vote still count?), restoring, correcting the vote. It can be
 * closed while its request travels; the request lives here, not in the form, so its answer still comes
 * (as a toast) and a dialog opened again meanwhile does not send it twice.
 */
export function RecordChangeDialog({ change, onClose }: { change: RecordChange; onClose: () => void }) {
  const voiding = useVoidRecord(showsOwnError);
  const restoring = useRestoreRecord(showsOwnError);
  const correcting = useCorrectVote(showsOwnError);
  const shown = useDialogOpening(change !== null);
  // A fresh form for each record and kind: nothing typed for one carries over to the next.
  if (!change) return null;
  return (
    <ChangeForm
      key={`${change.kind}-${change.record.id}`}
      change={change}
      onClose={onClose}
      requests={{ voiding, restoring, correcting, shown }}
    />
  );
}

/** The record as it is now, when a correction was refused because its vote changed meanwhile. */
function freshRecordOf(error: Error): RecordAdmin | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  return (error.body as VoteCorrectionConflict | undefined)?.record;
}

function ChangeForm({ change, onClose, requests }: { change: Change; onClose: () => void; requests: ChangeRequests }) {
  const { kind } = change;
  // A correction names the vote it corrects; when it changed meanwhile, the dialog shows the vote as it is
  // now and the next try corrects that one.
  const [record, setRecord] = useState(change.record);
  // Voiding: the vote no longer counts unless the admin says it still does. Correcting: the new
  // candidates, or clearing the vote.
  const form = useDraftForm(changeReasonSchema, () => ({
    reason: '',
    voteCounts: false,
    clear: false,
    codes: record.votes,
  }));
  const { draft, errors, set } = form;
  const { reason, voteCounts, clear, codes } = draft;
  const { voiding, restoring, correcting, shown } = requests;
  // The requests outlive this form (closed and opened again, it is a new one): theirs counts too.
  const pending = form.sending || voiding.isPending || restoring.isPending || correcting.isPending;
  const voted = record.votedAt !== null;

  const confirm = form.submit(({ reason: why }) => {
    const sentFrom = shown.opening;
    const sent =
      kind === 'void'
        ? voiding.mutateAsync({ id: record.id, reason: why, voteCounts: voted && voteCounts })
        : kind === 'restore'
          ? restoring.mutateAsync({ id: record.id, reason: why })
          : correcting.mutateAsync({
              id: record.id,
              reason: why,
              candidates: clear ? null : codes,
              voteRevision: record.voteRevision,
            });
    return sent.then(
      (result: { message: string }) => {
        toast.success(result.message);
        if (shown.isShowing(sentFrom)) onClose();
      },
      (error: Error) => {
        const fresh = freshRecordOf(error);
        if (fresh && shown.isShowing(sentFrom)) setRecord(fresh);
        showErrorFrom(shown, sentFrom, error, (message) => form.showErrors({ form: message }));
      },
    );
  });

  const title = kind === 'void' ? 'Anular registro' : kind === 'restore' ? 'Restaurar registro' : 'Corregir voto';
  const confirmLabel =
    kind === 'void'
      ? 'Anular registro'
      : kind === 'restore'
        ? 'Restaurar registro'
        : clear
          ? 'Borrar voto'
          : 'Corregir voto';
  let message: ReactNode;
  if (kind === 'void') {
    message = (
      <>
        ¿Anular el registro de <strong>{record.nombre}</strong>? Sale de la lista de validación y del avance del
        municipio; queda guardado y en el registro de auditoría.
      </>
    );
  } else if (kind === 'restore') {
    message = (
      <>
        ¿Restaurar el registro de <strong>{record.nombre}</strong>? Vuelve a la lista de validación y al avance
        {voted && !record.voteCounts ? '; su voto vuelve a contar en los resultados' : ''}.
      </>
    );
  } else {
    message = (
      <>
        Voto actual de <strong>{record.nombre}</strong>: {votesText(record)}. Los resultados y el avance cambian al
        guardar.
      </>
    );
  }

  return (
    <ConfirmDialog
      open
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      danger={kind === 'void' || (kind === 'vote' && clear)}
      pending={pending}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <div className="flex flex-col gap-4">
        {kind === 'void' && voted && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1.5 font-semibold text-stone-800">
              ¿Su voto ({votesText(record)}) sigue contando en los resultados?
            </legend>
            <label className={choiceClass}>
              <input
                type="radio"
                name="voto-cuenta"
                className="mt-1 h-4 w-4 accent-brand"
                checked={!voteCounts}
                onChange={() => set('voteCounts', false)}
              />
              <span>No, deja de contar</span>
            </label>
            <label className={choiceClass}>
              <input
                type="radio"
                name="voto-cuenta"
                className="mt-1 h-4 w-4 accent-brand"
                checked={voteCounts}
                onChange={() => set('voteCounts', true)}
              />
              <span>Sí, sigue contando</span>
            </label>
          </fieldset>
        )}
        {kind === 'vote' && (
          <CorrectionChoice
            clear={clear}
            setClear={(value) => set('clear', value)}
            codes={codes}
            setCodes={(value) => set('codes', value)}
          />
        )}
        <TextAreaField
          label="Motivo"
          hint="Obligatorio. Queda en el registro de auditoría."
          value={reason}
          maxLength={300}
          rows={2}
          required
          error={errors.reason}
          onChange={(e) => {
            set('reason', e.target.value);
            if (e.target.value.trim()) form.clearError('reason');
          }}
        />
        {errors.form && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
            {errors.form}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}

/** The new vote: ticked candidates (none is a vote for nobody), or no vote at all. */
function CorrectionChoice({
  clear,
  setClear,
  codes,
  setCodes,
}: {
  clear: boolean;
  setClear: (clear: boolean) => void;
  codes: string[];
  setCodes: (codes: string[]) => void;
}) {
  const candidates = useCandidates();
  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 font-semibold text-stone-800">Nuevo voto</legend>
        <label className={choiceClass}>
          <input
            type="radio"
            name="correccion"
            className="mt-1 h-4 w-4 accent-brand"
            checked={!clear}
            onChange={() => setClear(false)}
          />
          <span>Cambiar los candidatos</span>
        </label>
        <label className={choiceClass}>
          <input
            type="radio"
            name="correccion"
            className="mt-1 h-4 w-4 accent-brand"
            checked={clear}
            onChange={() => setClear(true)}
          />
          <span>Borrar el voto: el trámite vuelve a quedar sin votar</span>
        </label>
      </fieldset>
      {!clear &&
        (candidates.isPending ? (
          <Spinner label="Cargando los candidatos…" />
        ) : candidates.isError ? (
          <p role="alert" className="text-red-900">
            {candidates.error.message}
          </p>
        ) : (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1.5 font-semibold text-stone-800">Candidatos (ninguno: voto sin candidatos)</legend>
            {candidates.data.items.map((c) => (
              <label key={c.code} className={choiceClass}>
                <input
                  type="checkbox"
                  className="mt-1 h-4 w-4 accent-brand"
                  checked={codes.includes(c.code)}
                  onChange={() =>
                    setCodes(codes.includes(c.code) ? codes.filter((x) => x !== c.code) : [...codes, c.code])
                  }
                />
                <span>
                  <strong>{c.code}</strong> {c.name}
                </span>
              </label>
            ))}
          </fieldset>
        ))}
    </div>
  );
}
