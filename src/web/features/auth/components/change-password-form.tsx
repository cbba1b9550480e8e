import { toast } from 'react-toastify/unstyled';
import { changePasswordBodySchema } from '#shared/features/auth/auth';
import { NEW_PASSWORD_MIN_LENGTH } from '#shared/platform/constants';
import { authMessages } from '#shared/platform/session';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { Page } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useChangePassword } from '../api/change-password';
import { useLogout } from '../api/logout';
import { PasswordField } from './password-field';

type Field = 'newPassword' | 'repeat';

/**
 * Shown instead of everything else to a person who signed in with a one-time password an admin gave
 * them: the server answers nothing else until they choose their own (decision 040). The one-time
 * password was typed to open this session, which is proof enough: it is not asked again (decision 063).
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const form = useDraftForm(changePasswordBodySchema, (): Record<Field, string> => ({ newPassword: '', repeat: '' }), {
    // The repetition is the form's own: the server is sent the new password once.
    check: (draft, errors) =>
      !errors.newPassword && draft.repeat !== draft.newPassword ? { repeat: authMessages.passwordsDiffer } : {},
  });
  const { draft: values, errors, set: setValue } = form;
  const serverError = errors.form;
  const change = useChangePassword(showsOwnError);
  const signOut = useLogout();
  const set = (field: Field) => (value: string) => setValue(field, value);

  const submit = form.submit((body) =>
    change.mutateAsync(body).then(
      () => toast.success(authMessages.passwordChanged),
      (error: Error) => form.showErrors({ form: error.message }),
    ),
  );

  const hint = (field: Field) =>
    errors[field] ? (
      <p id={`${field}-error`} className="text-sm font-semibold text-red-800">
        {errors[field]}
      </p>
    ) : null;

  return (
    <Page>
      <div className="mx-auto mt-4 w-full max-w-md rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:mt-10 sm:p-8">
        <h1 className="text-center text-3xl font-black text-brand">Elige tu contraseña</h1>
        <p className="mt-3 text-stone-700">
          Entraste como <strong className="break-all">{email}</strong> con una contraseña de un solo uso. Elige una
          nueva para continuar: solo tú la sabrás.
        </p>
        <p id="password-rule" className="mt-2 text-sm text-stone-700">
          Al menos {NEW_PASSWORD_MIN_LENGTH} caracteres, y que no se adivine fácilmente (como 1234567890, 11111111111 o
          password123).
        </p>
        <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-4" aria-label="Elige tu contraseña">
          <div className="flex flex-col gap-1">
            <PasswordField
              id="password-new"
              label="Contraseña nueva"
              autoComplete="new-password"
              value={values.newPassword}
              onChange={set('newPassword')}
              invalid={Boolean(errors.newPassword)}
              describedBy={errors.newPassword ? 'newPassword-error password-rule' : 'password-rule'}
            />
            {hint('newPassword')}
          </div>
          <div className="flex flex-col gap-1">
            <PasswordField
              id="password-repeat"
              label="Repite la contraseña nueva"
              autoComplete="new-password"
              value={values.repeat}
              onChange={set('repeat')}
              invalid={Boolean(errors.repeat)}
              describedBy={errors.repeat ? 'repeat-error' : undefined}
            />
            {hint('repeat')}
          </div>
          {serverError && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
              {serverError}
            </p>
          )}
          <SubmitButton
            sending={form.sending}
            className="mt-1 rounded-lg bg-brand px-5 py-3 text-lg font-bold text-white shadow-sm hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait disabled:bg-stone-300 disabled:text-stone-900"
          >
            Guardar contraseña
          </SubmitButton>
          <button
            type="button"
            onClick={() => signOut.mutate({})}
            className="rounded-lg px-5 py-2 font-semibold text-brand underline underline-offset-4 hover:text-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            Cerrar sesión
          </button>
        </form>
      </div>
    </Page>
  );
}
