import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatCount } from '#shared/platform/format';
import { paths } from '#web/platform/paths';
import { buttonClass } from '#web/platform/ui/back-office';
import { Modal } from '#web/platform/ui/modal';
import { forgetCopies } from '../device/device-copies';
import { rememberDepartment, rememberEndedWithWaiting, rememberOwner } from '../device/device-hints';
import { deviceOutbox } from '../outbox/device-outbox';
import { isWaiting } from '../outbox/outbox-item';
import { itemLabel, voteChoice } from '../outbox/outbox-labels';
import {
  type OutboxConnectionOptions,
  useOutbox,
  useOutboxConnection,
  useOutboxViewer,
  useWaitingCount,
} from '../outbox/use-outbox';

/*
 * What the app's layout needs of the outbox, in one chunk it loads only for people signed in (or when
 * the phone holds items): the navbar count, the questions and clean-up of 'Cerrar sesión', and the
 * clean-up when the phone learns a session ended some other way (docs/decisions/061).
 */

function UploadIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M12 16V4m0 0l-4 4m4-4l4 4M4 16v3a1 1 0 001 1h14a1 1 0 001-1v-3"
      />
    </svg>
  );
}

/** The navbar's count of what waits on this phone for the person using it, linking to the list. */
export default function OutboxNavItem(props: OutboxConnectionOptions) {
  useOutboxConnection(props);
  const count = useWaitingCount(useOutboxViewer());
  if (count === 0) return null;
  const label = `${formatCount(count)} ${count === 1 ? 'envío pendiente' : 'envíos pendientes'}`;
  return (
    <Link
      to={paths.outbox}
      className="inline-flex items-center gap-1 rounded-md px-2 py-2 font-bold text-brand hover:bg-brand-light focus-visible:outline-2 focus-visible:outline-brand"
      aria-label={label}
      title={label}
    >
      <UploadIcon />
      <span className="min-w-6 rounded-full bg-brand px-1.5 text-center text-sm text-white tabular-nums">
        {formatCount(count)}
      </span>
    </Link>
  );
}

/** How many of this person's items still wait to be sent (reads the phone's copy first); refusals not. */
export async function waitingOnDevice(owner: string): Promise<number> {
  const outbox = deviceOutbox();
  await outbox.load();
  return outbox.waiting(owner).length;
}

/**
 * After a sign-out: the phone forgets the lists it kept (names and phones) and what the server already
 * has; waiting items stay unless the person chose, twice, to delete them.
 */
export async function forgetDevice(owner: string, dropWaiting: boolean): Promise<void> {
  rememberOwner(null);
  rememberDepartment(null);
  rememberEndedWithWaiting(null);
  await deviceOutbox().signOut(dropWaiting ? owner : undefined);
  await forgetCopies();
}

/**
 * The phone learnt that the session of `owner` ended without 'Cerrar sesión' (an admin ended it, a
 * password reset, 'todos los dispositivos' elsewhere, expiry): the same clean-up as a sign-out that keeps
 * the waiting items, which stay stored for their owner; /login then says they are kept.
 */
export async function forgetEndedSession(owner: string): Promise<number> {
  const waiting = await waitingOnDevice(owner);
  await forgetDevice(owner, false);
  rememberEndedWithWaiting(waiting);
  return waiting;
}

/**
 * The lists the phone kept for offline use (names and phones) go: the session they were read with ended
 * (a 401), or someone else signed in. Items on the phone stay their owners'.
 */
export async function forgetLists(): Promise<void> {
  await forgetCopies();
}

export interface SignOutDialogProps {
  /** Whose items wait: the person signing out. */
  owner: string;
  /** Open while this person's items wait and they asked to sign out. */
  open: boolean;
  onKeep: () => void;
  onDrop: () => void;
  onCancel: () => void;
}

const linkButton =
  'self-center rounded-md px-2 py-2 text-sm font-semibold text-stone-700 underline underline-offset-4 hover:text-red-800 focus-visible:outline-2 focus-visible:outline-brand';

/**
 * 'Cerrar sesión' with items waiting: says so, and makes keeping them the obvious answer. Deleting them
 * takes a second, deliberate step that names every item that would be lost.
 */
export function SignOutDialog({ owner, open, onKeep, onDrop, onCancel }: SignOutDialogProps) {
  const { items } = useOutbox();
  const waiting = items.filter((i) => i.owner === owner && isWaiting(i));
  const [step, setStep] = useState<'ask' | 'drop'>('ask');
  const safeButton = useRef<HTMLButtonElement>(null);
  // Each step opens with the safe answer focused: Enter never deletes anything.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the focus moves when the step changes
  useEffect(() => {
    if (open) safeButton.current?.focus();
  }, [open, step]);
  const close = () => {
    setStep('ask');
    onCancel();
  };
  const count = waiting.length;
  const what = count === 1 ? '1 voto o foto' : `${formatCount(count)} votos o fotos`;

  if (step === 'drop') {
    return (
      <Modal
        open={open && count > 0}
        onClose={close}
        title={count === 1 ? '¿Borrar 1 envío sin enviar?' : `¿Borrar ${formatCount(count)} envíos sin enviar?`}
        description="Se borrarán de este teléfono y nunca llegarán al servidor:"
      >
        <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto text-stone-800" aria-label="Se perderán">
          {waiting.map((item) => (
            <li key={item.seq}>
              <span className="font-semibold">
                {itemLabel(item)}
                {item.kind === 'vote' ? ` (${voteChoice(item.candidates)})` : ''}
              </span>{' '}
              de {item.recordName}
            </li>
          ))}
        </ul>
        <div className="mt-5 flex flex-col gap-3 sm:flex-row-reverse sm:justify-start">
          <button ref={safeButton} type="button" className={buttonClass.primary} onClick={() => setStep('ask')}>
            No borrar
          </button>
          <button
            type="button"
            className={buttonClass.danger}
            onClick={() => {
              setStep('ask');
              onDrop();
            }}
          >
            Borrar y cerrar sesión
          </button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal
      open={open && count > 0}
      onClose={close}
      title="Hay envíos sin terminar"
      description={`${what} de esta cuenta ${count === 1 ? 'espera' : 'esperan'} en este teléfono: todavía no ${count === 1 ? 'llegó' : 'llegaron'} al servidor. Si cierras sesión se quedan aquí y se envían cuando vuelvas a entrar con esta cuenta.`}
    >
      <div className="flex flex-col gap-3">
        <button ref={safeButton} type="button" className={buttonClass.primary} onClick={onKeep}>
          Cerrar sesión y conservarlos
        </button>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to={paths.outbox} onClick={close} className={`${buttonClass.secondary} sm:flex-1`}>
            Ver envíos
          </Link>
          <button type="button" className={`${buttonClass.secondary} sm:flex-1`} onClick={close}>
            Cancelar
          </button>
        </div>
        <button type="button" className={linkButton} onClick={() => setStep('drop')}>
          Borrar estos envíos…
        </button>
      </div>
    </Modal>
  );
}
