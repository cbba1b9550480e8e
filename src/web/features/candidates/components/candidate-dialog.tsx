import { useEffect, useId } from 'react';
import { toast } from 'react-toastify/unstyled';
import {
  type AdminCandidate,
  type CreateCandidateBody,
  contrastRatio,
  createCandidateBodySchema,
  readableTextOn,
  type UpdateCandidateBody,
  updateCandidateBodySchema,
} from '#shared/features/candidates/candidates';
import { formatDecimal } from '#shared/platform/format';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { buttonClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { SelectField, TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useCreateCandidate } from '../api/create-candidate';
import { useUpdateCandidate } from '../api/update-candidate';

export interface CandidateDialogProps {
  open: boolean;
  /** The candidate being edited; null to add one. */
  candidate: AdminCandidate | null;
  /** How many candidates the ballot has (the choices of the position). */
  count: number;
  onClose: () => void;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

type Draft = { name: string; code: string; colour: string; position: string };

const draftOf = (candidate: AdminCandidate | null, count: number): Draft => ({
  name: candidate?.name ?? '',
  code: candidate?.code ?? '',
  colour: candidate?.colour ?? '#1D4ED8',
  position: String(candidate?.position ?? count + 1),
});

/** Name, code, colour (with a preview that tells whether it reads well) and place on the ballot. */
export function CandidateDialog({ open, candidate, count, onClose }: CandidateDialogProps) {
  const id = useId();
  const create = useCreateCandidate(showsOwnError);
  const update = useUpdateCandidate(showsOwnError);
  const codeLocked = (candidate?.votes ?? 0) > 0;
  const form = useDraftForm(
    candidate ? updateCandidateBodySchema : createCandidateBodySchema,
    () => draftOf(candidate, count),
    {
      // A new candidate has no place yet; one with votes keeps its code.
      body: ({ name, code, colour, position }) =>
        candidate
          ? { name, colour, position: Number(position), ...(codeLocked ? {} : { code }) }
          : { name, code, colour },
    },
  );
  const { draft, errors, field, set, reset } = form;
  const { code, colour } = draft;

  useEffect(() => {
    if (open) reset(draftOf(candidate, count));
  }, [open, candidate, count, reset]);

  // The dialog can be closed while this travels: the answer then comes as a toast only.
  const opening = useDialogOpening(open);
  const submit = form.submit((body) => {
    const sentFrom = opening.opening;
    const sent = candidate
      ? update.mutateAsync({ id: candidate.id, ...(body as UpdateCandidateBody) })
      : create.mutateAsync(body as CreateCandidateBody);
    return sent.then(
      (c) => {
        toast.success(`Candidato ${c.code} ${candidate ? 'guardado' : 'añadido'}`);
        if (opening.isShowing(sentFrom)) onClose();
      },
      (e: Error) => showErrorFrom(opening, sentFrom, e, (message) => form.showErrors({ form: message })),
    );
  });

  const valid = HEX.test(colour);
  const shown = valid ? colour.toUpperCase() : '#FFFFFF';
  const onWhite = valid ? contrastRatio(shown, '#FFFFFF') : 1;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={candidate ? `Editar ${candidate.code}` : 'Nuevo candidato'}
      testId="candidate-dialog"
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField label="Nombre" {...field('name')} />
        <TextField
          label="Código"
          {...field('code')}
          onChange={(e) => set('code', e.target.value.toUpperCase())}
          maxLength={5}
          autoCapitalize="characters"
          spellCheck={false}
          disabled={codeLocked}
          hint={
            codeLocked
              ? 'Ya tiene votos: su código no cambia.'
              : 'De 1 a 5 letras mayúsculas, por ejemplo FA. Aparece en la boleta y en los votos.'
          }
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-color`} className={labelClass}>
            Color
          </label>
          <div className="flex items-center gap-3">
            <input
              type="color"
              aria-label="Elegir color"
              className="h-11 w-14 shrink-0 cursor-pointer rounded-lg border-2 border-stone-300 bg-white p-1"
              value={valid ? colour.toLowerCase() : '#ffffff'}
              onChange={(e) => set('colour', e.target.value.toUpperCase())}
            />
            <input
              id={`${id}-color`}
              className={`${inputClass} font-mono uppercase`}
              value={colour}
              onChange={(e) => set('colour', e.target.value)}
              maxLength={7}
              spellCheck={false}
              aria-invalid={errors.colour ? true : undefined}
              aria-describedby={`${id}-color-ayuda${errors.colour ? ` ${id}-color-error` : ''}`}
            />
          </div>
          <p id={`${id}-color-ayuda`} className="text-sm text-stone-600">
            Hexadecimal de seis cifras, por ejemplo #1D4ED8.
          </p>
          {errors.colour && (
            <p id={`${id}-color-error`} className="text-sm font-semibold text-red-800">
              {errors.colour}
            </p>
          )}
        </div>
        <div className="rounded-lg border border-stone-200 p-3" aria-live="polite">
          <p className="text-sm font-semibold text-stone-700">Vista previa</p>
          <div className="mt-2 flex items-center gap-3">
            <span
              className="inline-flex min-w-12 items-center justify-center rounded-lg px-3 py-1.5 text-lg font-black"
              style={{ backgroundColor: shown, color: readableTextOn(shown) }}
            >
              {code || 'XX'}
            </span>
            <div className="h-4 flex-1 overflow-hidden rounded-full bg-stone-200">
              <div className="h-full w-2/3 rounded-full" style={{ backgroundColor: shown }} />
            </div>
          </div>
          {valid && (
            <p className={`mt-2 text-sm ${onWhite < 3 ? 'font-semibold text-amber-900' : 'text-stone-700'}`}>
              Contraste con el fondo blanco: {formatDecimal(onWhite, 1)}:1.{' '}
              {onWhite < 3
                ? 'Es un color claro: la barra de resultados se verá poco. Elige uno más oscuro.'
                : 'Se distingue bien.'}
            </p>
          )}
        </div>
        {candidate && (
          <SelectField
            id={`${id}-lugar`}
            label="Lugar en la boleta"
            value={draft.position}
            onChange={(e) => set('position', e.target.value)}
          >
            {Array.from({ length: count }, (_, i) => i + 1).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </SelectField>
        )}
        {errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            {errors.form}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Guardando…">
            {candidate ? 'Guardar' : 'Añadir candidato'}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
