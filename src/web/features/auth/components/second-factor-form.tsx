import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { SecondFactorEnrolment } from '#shared/features/auth/second-factor';
import { secondFactorMessages } from '#shared/features/auth/second-factor';
import { copyToClipboard } from '#web/platform/lib/copy-to-clipboard';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { SESSION_QUERY_KEY } from '#web/platform/session/get-session';
import { TextField } from '#web/platform/ui/fields';
import { Page } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useConfirmSecondFactor } from '../api/confirm-second-factor';
import { useEnrolSecondFactor } from '../api/enrol-second-factor';
import { useLogout } from '../api/logout';
import { useVerifySecondFactor } from '../api/verify-second-factor';

const cardClass =
  'mx-auto mt-4 w-full max-w-md rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:mt-10 sm:p-8';

/**
 * Shown instead of everything else while the session owes its second factor (decision 080): the code of
 * the person's authenticator app, or, for an admin who must have one, setting it up first.
 */
export function SecondFactorForm({ email, owed }: { email: string; owed: 'verify' | 'enrol' }) {
  return (
    <Page>
      <div className={cardClass}>
        {owed === 'verify' ? <VerifyForm email={email} /> : <EnrolForm email={email} />}
        <SignOutButton />
      </div>
    </Page>
  );
}

function CodeForm({
  label,
  submitLabel,
  hint,
  onCode,
  sending,
}: {
  label: string;
  submitLabel: string;
  hint: string;
  onCode: (code: string) => Promise<unknown>;
  sending: boolean;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (code.trim().length < 6) {
      setError(secondFactorMessages.codeRequired);
      return;
    }
    setError(undefined);
    onCode(code.trim()).catch((e: Error) => {
      setError(e.message);
      setCode('');
    });
  };
  return (
    <form onSubmit={submit} noValidate className="mt-5 flex flex-col gap-4" aria-label="Segundo factor">
      <TextField
        label={label}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoComplete="one-time-code"
        inputMode="text"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={40}
        hint={hint}
        error={error}
      />
      <SubmitButton sending={sending} sendingLabel="Comprobando…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

function VerifyForm({ email }: { email: string }) {
  const verify = useVerifySecondFactor(showsOwnError);
  return (
    <>
      <h1 className="text-center text-3xl font-black text-brand">Segundo factor</h1>
      <p className="mt-3 text-stone-700">
        Entraste como <strong className="break-all">{email}</strong>. Abre tu aplicación de autenticación y escribe el
        código de Comando.
      </p>
      <CodeForm
        label="Código de verificación"
        submitLabel="Verificar"
        hint="Los 6 dígitos de la aplicación, o uno de tus códigos de recuperación (cada uno sirve una sola vez)."
        onCode={(code) => verify.mutateAsync({ code })}
        sending={verify.isPending}
      />
    </>
  );
}

/**
 * Setting up the second factor: the QR code and the secret, one code to confirm, then the recovery
 * codes. `onDone` runs when the person says they kept the codes (by default the session is asked again).
 */
export function EnrolForm({ email, onDone }: { email: string; onDone?: () => void }) {
  const enrol = useEnrolSecondFactor();
  const confirm = useConfirmSecondFactor(showsOwnError);
  const [enrolment, setEnrolment] = useState<SecondFactorEnrolment | null>(null);
  const { mutate } = enrol;
  useEffect(() => mutate(undefined, { onSuccess: setEnrolment }), [mutate]);

  if (confirm.data) return <RecoveryCodesList codes={confirm.data.recoveryCodes} onDone={onDone} />;
  return (
    <>
      <h1 className="text-center text-3xl font-black text-brand">Configura el segundo factor</h1>
      <p className="mt-3 text-stone-700">
        Entraste como <strong className="break-all">{email}</strong>. Los administradores entran con la contraseña y un
        código de una aplicación de autenticación (Google Authenticator, Aegis, 1Password…).
      </p>
      <ol className="mt-3 list-decimal pl-5 text-stone-700">
        <li>Escanea este código QR con la aplicación.</li>
        <li>Escribe el código de 6 dígitos que te muestra.</li>
      </ol>
      {enrolment ? (
        <div className="mt-4 flex flex-col items-center gap-2">
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
            alt="Código QR para tu aplicación de autenticación"
            width={220}
            height={220}
            className="rounded-lg border border-stone-200"
          />
          <p className="text-sm text-stone-700">
            ¿No puedes escanearlo? Escribe esta clave en la aplicación:{' '}
            <code data-testid="clave-segundo-factor" className="break-all font-mono font-semibold text-stone-900">
              {enrolment.secret}
            </code>
          </p>
        </div>
      ) : (
        <p className="mt-4 text-stone-700" role="status">
          {enrol.isError ? enrol.error.message : 'Preparando el código QR…'}
        </p>
      )}
      {enrolment && (
        <CodeForm
          label="Código de la aplicación"
          submitLabel="Confirmar"
          hint="Los 6 dígitos que muestra la aplicación ahora."
          onCode={(code) => confirm.mutateAsync({ code })}
          sending={confirm.isPending}
        />
      )}
    </>
  );
}

/** The ten recovery codes, this once; the session is asked again only when the person says they kept them. */
function RecoveryCodesList({ codes, onDone }: { codes: string[]; onDone?: (() => void) | undefined }) {
  const queryClient = useQueryClient();
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = () =>
    copyToClipboard(codes.join('\n')).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  return (
    <>
      <h1 className="text-center text-3xl font-black text-brand">Códigos de recuperación</h1>
      <p className="mt-3 text-stone-700">
        Guárdalos en un lugar seguro: cada uno sirve una sola vez para entrar si pierdes el teléfono.{' '}
        <strong>No se volverán a mostrar.</strong>
      </p>
      {/* One code a line on a phone, two from sm on: a code is never broken across lines. */}
      <ul aria-label="Códigos de recuperación" className="mt-4 grid gap-2 font-mono text-stone-900 sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="rounded bg-stone-100 px-2 py-1 text-center whitespace-nowrap">
            {code}
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => void copy()}
        className="mt-3 w-full rounded-lg border border-brand px-5 py-2 font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
      >
        Copiar los códigos
      </button>
      <p role="status" className="mt-1 min-h-6 text-sm text-stone-700">
        {copied === 'yes'
          ? 'Copiados: pégalos donde los vayas a guardar.'
          : copied === 'no'
            ? 'No se pudieron copiar: selecciónalos y cópialos a mano.'
            : ''}
      </p>
      <button
        type="button"
        onClick={() => (onDone ? onDone() : void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }))}
        className="mt-5 w-full rounded-lg bg-brand px-5 py-3 text-lg font-bold text-white shadow-sm hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
      >
        Ya los guardé, continuar
      </button>
    </>
  );
}

function SignOutButton() {
  const signOut = useLogout();
  return (
    <button
      type="button"
      onClick={() => signOut.mutate({})}
      className="mt-4 w-full rounded-lg border border-brand px-5 py-2 font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
    >
      Cerrar sesión
    </button>
  );
}
