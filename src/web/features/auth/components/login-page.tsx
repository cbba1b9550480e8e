import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { loginBodySchema } from '#shared/features/auth/auth';
import { messages } from '#shared/platform/messages';
import { authMessages, safeNextPath } from '#shared/platform/session';
import { ApiError } from '#web/platform/lib/api-client';
import { showErrorToast } from '#web/platform/lib/mutation-errors';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { useSession } from '#web/platform/session/get-session';
import { ErrorNotice, Page, PageLoading } from '#web/platform/ui/page';
import { useAuthProvider } from '../api/get-auth-provider';
import { useLogin } from '../api/login';
import { useLogout } from '../api/logout';
import { preloadFirebaseSignIn, signOutOfFirebaseIfLoaded } from '../firebase-session';
import { ChangePasswordForm } from './change-password-form';
import { PasswordField } from './password-field';
import { SecondFactorForm } from './second-factor-form';

/**
 * The spec's /login: e-mail, password with an eye toggle, 'Entrar'. The shared schema checks the form
 * before it leaves (the server checks it again with the same schema) and each problem is a toast.
 */
export function LoginPage() {
  const session = useSession();
  const owed = session.data?.user?.secondFactor;
  useDocumentTitle(
    owed ? 'Segundo factor' : session.data?.user?.mustChangePassword ? 'Elige tu contraseña' : 'Iniciar sesión',
  );
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));

  if (session.isPending) return <PageLoading label={messages.loading.session} />;
  if (session.isError) {
    return (
      <Page>
        <ErrorNotice message={session.error.message} onRetry={() => session.refetch()} />
      </Page>
    );
  }
  const { user, home } = session.data;
  if (user?.secondFactor) return <SecondFactorForm email={user.email} owed={user.secondFactor} />;
  if (user?.mustChangePassword) return <ChangePasswordForm email={user.email} />;
  if (user && (next || home)) return <Navigate to={next ?? home ?? '/'} replace />;
  if (user) return <NoDepartmentNotice email={user.email} />;
  return <LoginForm />;
}

function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<'email' | 'password' | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const signIn = useLogin();
  const provider = useAuthProvider();

  // Where Firebase checks passwords, its SDK downloads while the person types.
  useEffect(() => preloadFirebaseSignIn(provider.data), [provider.data]);
  // The form shows only without a session of ours: the SDK must not hold anybody either.
  useEffect(() => {
    signOutOfFirebaseIfLoaded().catch(() => undefined);
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (signIn.isPending) return;
    const parsed = loginBodySchema.safeParse({ email, password });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0] === 'password' ? 'password' : 'email';
      setInvalid(field);
      (field === 'email' ? emailRef : passwordRef).current?.focus();
      showErrorToast(issue?.message ?? authMessages.required);
      return;
    }
    setInvalid(null);
    signIn.mutate(
      { email, password },
      {
        // The query client's default toast says why; the unexpected is logged too.
        onError: (error) => {
          if (!(error instanceof ApiError) || error.status >= 500 || error.status === 0) console.error(error);
        },
      },
    );
  };

  return (
    <Page>
      <div className="mx-auto mt-4 w-full max-w-md rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:mt-10 sm:p-8">
        <h1 className="text-center text-3xl font-black text-brand">Iniciar sesión</h1>
        <p className="mt-2 text-center text-stone-600">Acceso para el equipo de validación y resultados.</p>
        <form onSubmit={onSubmit} noValidate className="mt-6 flex flex-col gap-5" aria-label="Iniciar sesión">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="login-email" className="font-semibold text-stone-800">
              Correo electrónico
            </label>
            <input
              ref={emailRef}
              id="login-email"
              name="email"
              type="email"
              inputMode="email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={invalid === 'email' || undefined}
              className="w-full rounded-lg border border-stone-400 bg-white px-4 py-3 text-base text-stone-900 shadow-sm outline-none focus:border-brand focus:ring-2 focus:ring-brand/30 aria-invalid:border-red-700"
            />
          </div>
          <PasswordField
            ref={passwordRef}
            id="login-password"
            label="Contraseña"
            value={password}
            onChange={setPassword}
            invalid={invalid === 'password'}
          />
          <button
            type="submit"
            disabled={signIn.isPending}
            aria-busy={signIn.isPending || undefined}
            className="mt-1 rounded-lg bg-brand px-5 py-3 text-lg font-bold text-white shadow-sm hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-wait disabled:bg-stone-300 disabled:text-stone-900"
          >
            Entrar
          </button>
        </form>
      </div>
    </Page>
  );
}

/** Signed in, but on no department's list: say so, and let them change account. */
function NoDepartmentNotice({ email }: { email: string }) {
  const signOut = useLogout();
  return (
    <Page>
      <div className="mx-auto mt-4 w-full max-w-md rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm sm:mt-10 sm:p-8">
        <h1 className="text-2xl font-bold text-brand">Sesión iniciada</h1>
        <p className="mt-3 text-stone-700">
          Entraste como <strong className="break-all">{email}</strong>.
        </p>
        <p className="mt-2 text-stone-700">{authMessages.noDepartment}</p>
        <button
          type="button"
          onClick={() => signOut.mutate({})}
          className="mt-5 rounded-lg border border-brand px-5 py-2 font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
        >
          Cerrar sesión
        </button>
      </div>
    </Page>
  );
}
