import { useId } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { type CreateUserResult, createUserBodySchema } from '#shared/features/people/people';
import { NEW_PASSWORD_MIN_LENGTH } from '#shared/platform/constants';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { buttonClass, labelClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useCreateUser } from '../api/create-user';
import { DepartmentChecklist } from './department-checklist';

export interface CreateUserDialogProps {
  open: boolean;
  onClose: () => void;
  departments: Pick<AdminDepartment, 'slug' | 'title' | 'kind'>[];
  /** The account exists (the dialog closed itself if it was still open): its one-time password, if any. */
  onCreated: (result: CreateUserResult) => void;
  /** False where Firebase Auth checks passwords: no password is asked or generated. */
  passwordsHere?: boolean;
}

type Draft = {
  email: string;
  role: 'staff' | 'admin';
  /** A one-time password made by the server, or one the admin writes. */
  mode: 'generate' | 'set';
  password: string;
  departments: string[];
};
const empty = (): Draft => ({ email: '', role: 'staff', mode: 'generate', password: '', departments: [] });

/** New account: e-mail, role, a one-time password (or one the admin writes) and its departments. */
export function CreateUserDialog({
  open,
  onClose,
  departments,
  onCreated,
  passwordsHere = true,
}: CreateUserDialogProps) {
  const id = useId();
  const create = useCreateUser(showsOwnError);
  const form = useDraftForm(createUserBodySchema, empty, {
    body: ({ email, role, mode, password, departments }) => ({
      email,
      role,
      password: passwordsHere && mode === 'set' ? password : null,
      departments,
    }),
  });
  const { draft, errors, field, set, reset } = form;
  const { role, mode } = draft;

  const shown = useDialogOpening(open);
  // Closing never waits for the network. Closed while the account is being created, the draft stays
  // until the answer: a refusal (said in a toast) leaves it to correct when the dialog opens again.
  const close = () => {
    if (!create.isPending) reset(empty());
    onClose();
  };

  const submit = form.submit((body) => {
    const sentFrom = shown.opening;
    return create.mutateAsync(body).then(
      (result) => {
        toast.success(`Cuenta creada para ${result.user.email}`);
        reset(empty());
        if (shown.isShowing(sentFrom)) onClose();
        onCreated(result);
      },
      (error: Error) => showErrorFrom(shown, sentFrom, error, (message) => form.showErrors({ form: message })),
    );
  });

  return (
    <Modal open={open} onClose={close} title="Nueva persona" wide>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...field('email')}
        />
        <fieldset>
          <legend className={labelClass}>Rol</legend>
          <div className="flex flex-wrap gap-x-6">
            {(
              [
                ['staff', 'Personal'],
                ['admin', 'Administrador'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex min-h-11 cursor-pointer items-center gap-2">
                <input
                  type="radio"
                  name={`${id}-rol`}
                  className="h-5 w-5 accent-brand"
                  checked={role === value}
                  onChange={() => set('role', value)}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {!passwordsHere && (
          <p className="text-stone-700">
            Entrará con su cuenta de Firebase (el mismo correo): aquí no se le asigna contraseña.
          </p>
        )}
        {passwordsHere && (
          <fieldset className="flex flex-col gap-2">
            <legend className={labelClass}>Contraseña</legend>
            <label className="flex min-h-11 cursor-pointer items-center gap-2">
              <input
                type="radio"
                name={`${id}-clave`}
                className="h-5 w-5 accent-brand"
                checked={mode === 'generate'}
                onChange={() => set('mode', 'generate')}
              />
              Generar una contraseña temporal (se muestra una sola vez)
            </label>
            <label className="flex min-h-11 cursor-pointer items-center gap-2">
              <input
                type="radio"
                name={`${id}-clave`}
                className="h-5 w-5 accent-brand"
                checked={mode === 'set'}
                onChange={() => set('mode', 'set')}
              />
              Escribirla yo
            </label>
            {mode === 'set' && (
              <TextField
                label="Contraseña nueva"
                type="text"
                autoComplete="off"
                spellCheck={false}
                {...field('password')}
                hint={`Al menos ${NEW_PASSWORD_MIN_LENGTH} caracteres, y que no se adivine fácilmente.`}
              />
            )}
          </fieldset>
        )}
        <DepartmentChecklist
          departments={departments}
          selected={draft.departments}
          onChange={(departments) => set('departments', departments)}
          legend="Acceso a departamentos (opcional)"
        />
        {errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            {errors.form}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={close}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Creando…">
            Crear cuenta
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
