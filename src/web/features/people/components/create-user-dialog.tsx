import { useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { type CreateUserResult, createUserBodySchema } from '#shared/features/people/people';
import { buttonClass, labelClass } from '#web/platform/ui/back-office';
import { fieldErrors, TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { useCreateUser } from '../api/create-user';
import { DepartmentChecklist } from './department-checklist';

export interface CreateUserDialogProps {
  open: boolean;
  onClose: () => void;
  departments: Pick<AdminDepartment, 'slug' | 'title' | 'kind'>[];
  onCreated: (result: CreateUserResult) => void;
  /** False where Firebase Auth checks passwords: no password is asked or generated. */
  passwordsHere?: boolean;
}

/** New account: e-mail, role, a one-time password (or one the admin writes) and its departments. */
export function CreateUserDialog({
  open,
  onClose,
  departments,
  onCreated,
  passwordsHere = true,
}: CreateUserDialogProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'staff' | 'admin'>('staff');
  const [mode, setMode] = useState<'generate' | 'set'>('generate');
  const [password, setPassword] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateUser();

  const reset = () => {
    setEmail('');
    setRole('staff');
    setMode('generate');
    setPassword('');
    setChosen([]);
    setErrors({});
  };
  const close = () => {
    if (create.isPending) return;
    reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createUserBodySchema.safeParse({
      email,
      role,
      password: passwordsHere && mode === 'set' ? password : null,
      departments: chosen,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (result) => {
        toast.success(`Cuenta creada para ${result.user.email}`);
        reset();
        onCreated(result);
      },
      onError: (error) => setErrors({ form: error.message }),
    });
  };

  return (
    <Modal open={open} onClose={close} title="Nueva persona" wide>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
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
                  onChange={() => setRole(value)}
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
                onChange={() => setMode('generate')}
              />
              Generar una contraseña temporal (se muestra una sola vez)
            </label>
            <label className="flex min-h-11 cursor-pointer items-center gap-2">
              <input
                type="radio"
                name={`${id}-clave`}
                className="h-5 w-5 accent-brand"
                checked={mode === 'set'}
                onChange={() => setMode('set')}
              />
              Escribirla yo
            </label>
            {mode === 'set' && (
              <TextField
                label="Contraseña nueva"
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={errors.password}
                hint="Al menos 6 caracteres."
              />
            )}
          </fieldset>
        )}
        <DepartmentChecklist
          departments={departments}
          selected={chosen}
          onChange={setChosen}
          legend="Acceso a departamentos (opcional)"
        />
        {errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            {errors.form}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={close} disabled={create.isPending}>
            Cancelar
          </button>
          <button type="submit" className={buttonClass.primary} disabled={create.isPending}>
            Crear cuenta
          </button>
        </div>
      </form>
    </Modal>
  );
}
