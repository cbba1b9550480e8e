import { useState } from 'react';
import {
  type RecordAdmin,
  type RecordBody,
  type RecordsDepartment,
  recordBodySchema,
  updateRecordBodySchema,
} from '#shared/features/records-admin/records-admin';
import { RECORD_LIMITS } from '#shared/platform/record-fields';
import { buttonClass } from '#web/platform/ui/back-office';
import { SelectField, TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';

type Draft = { department: string; comunidad: string; nombre: string; ubch: string; telefono: string };

const draftOf = (record: RecordAdmin | null, department: string): Draft => ({
  department: record?.departmentSlug ?? department,
  comunidad: record?.comunidad ?? '',
  nombre: record?.nombre ?? '',
  ubch: record?.ubch ?? '',
  telefono: record?.telefono ?? '',
});

export interface RecordDialogProps {
  open: boolean;
  /** The record being edited, or null to add one to `department`. */
  record: RecordAdmin | null;
  department: string;
  departments: RecordsDepartment[];
  serverError?: string;
  /** Sends the record; the dialog sends nothing else until the returned promise settles. */
  onSave: (body: RecordBody) => Promise<unknown>;
  onClose: () => void;
}

/** Adds or corrects a record: municipality, community, name, UBCH and phone. */
export function RecordDialog({
  open,
  record,
  department,
  departments,
  serverError,
  onSave,
  onClose,
}: RecordDialogProps) {
  // Editing, the phone comes masked as the list has it: sent back unchanged, the server keeps the stored one.
  const form = useDraftForm(record ? updateRecordBodySchema : recordBodySchema, () => draftOf(record, department));
  const { field } = form;
  const [shown, setShown] = useState<{ open: boolean; record: RecordAdmin | null }>({ open: false, record: null });
  if (shown.open !== open || shown.record !== record) {
    setShown({ open, record });
    if (open) form.reset(draftOf(record, department));
  }
  const voted = record?.votedAt != null;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={record ? 'Editar registro' : 'Agregar registro'}
      wide
      testId="record-dialog"
    >
      <form noValidate onSubmit={form.submit(onSave)} className="flex flex-col gap-4">
        <SelectField
          label="Municipio o parroquia"
          hint={voted ? 'Este registro ya tiene voto: no puede cambiar de municipio.' : undefined}
          disabled={voted}
          {...field('department')}
        >
          {departments.map((d) => (
            <option key={d.slug} value={d.slug}>
              {d.title}
            </option>
          ))}
        </SelectField>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Nombre"
            autoFocus
            autoComplete="off"
            maxLength={RECORD_LIMITS.nombre}
            {...field('nombre')}
          />
          <TextField
            label="Teléfono"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder="0414-1234567"
            maxLength={RECORD_LIMITS.telefono}
            {...field('telefono')}
          />
          <TextField label="Comunidad" autoComplete="off" maxLength={RECORD_LIMITS.comunidad} {...field('comunidad')} />
          <TextField label="UBCH" autoComplete="off" maxLength={RECORD_LIMITS.ubch} {...field('ubch')} />
        </div>
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
            {record ? 'Guardar cambios' : 'Agregar registro'}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
