import { useEffect, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import {
  createDepartmentBodySchema,
  departmentsMessages,
  slugFromTitle,
} from '#shared/features/departments/departments';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { buttonClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useCreateDepartment } from '../api/create-department';

export interface CreateDepartmentDialogProps {
  open: boolean;
  onClose: () => void;
  /** The department was created (its slug): the page opens it, to fill its access list. */
  onCreated?: (slug: string) => void;
}

const empty = () => ({ title: '', slug: '' });

/**
 * Adds a municipality or parish: its name and the identifier of its address (/validation/{slug}),
 * suggested from the name until the person writes one. The identifier stays once created.
 */
export function CreateDepartmentDialog({ open, onClose, onCreated }: CreateDepartmentDialogProps) {
  const form = useDraftForm(createDepartmentBodySchema, empty);
  const { draft, field, set, reset } = form;
  const [slugEdited, setSlugEdited] = useState(false);
  const create = useCreateDepartment(showsOwnError);
  const shown = useDialogOpening(open);
  useEffect(() => {
    if (!open) return;
    reset(empty());
    setSlugEdited(false);
  }, [open, reset]);

  const submit = form.submit((body) => {
    const sentFrom = shown.opening;
    return create.mutateAsync(body).then(
      (department) => {
        toast.success(departmentsMessages.created(department.title));
        if (!shown.isShowing(sentFrom)) return;
        onClose();
        onCreated?.(department.slug);
      },
      (error: Error) => showErrorFrom(shown, sentFrom, error, (message) => form.showErrors({ form: message })),
    );
  });

  const titleField = field('title');
  const slugField = field('slug');
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Nuevo departamento"
      description="Un municipio o una parroquia con su propia lista de validación. Se agrega al final del menú; después le das acceso a quienes lo validan."
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Nombre"
          maxLength={200}
          autoComplete="off"
          autoFocus
          {...titleField}
          onChange={(e) => {
            set('title', e.target.value);
            if (!slugEdited) set('slug', slugFromTitle(e.target.value));
          }}
        />
        <TextField
          label="Identificador"
          hint={
            <>
              Su dirección: <span className="font-mono">/validation/{draft.slug || '…'}</span>. Minúsculas sin tildes,
              números y guiones. No cambia después: los teléfonos guardan los envíos con él.
            </>
          }
          maxLength={100}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...slugField}
          onChange={(e) => {
            setSlugEdited(true);
            slugField.onChange(e);
          }}
        />
        {form.errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            {form.errors.form}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Agregando…">
            Agregar departamento
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
