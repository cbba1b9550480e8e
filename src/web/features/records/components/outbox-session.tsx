import { Link } from 'react-router';
import { formatCount } from '#shared/platform/format';
import { paths } from '#web/platform/paths';
import { buttonClass } from '#web/platform/ui/back-office';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { forgetCopies } from '../outbox/device-copies';
import { rememberDepartment, rememberOwner } from '../outbox/device-hints';
import { deviceOutbox } from '../outbox/device-outbox';
import { type OutboxConnectionOptions, useOutboxConnection, useUnsentCount } from '../outbox/use-outbox';

/*
 * What the app's layout needs of the outbox, in one chunk it loads only for people signed in (or when
 * the phone holds items): the navbar count, and the questions and clean-up of 'Cerrar sesión'.
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

/** The navbar's count of items waiting on this phone, linking to the list; nothing when none waits. */
export default function OutboxNavItem(props: OutboxConnectionOptions) {
  useOutboxConnection(props);
  const count = useUnsentCount();
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

/** How many of this person's items the server does not have yet (reads the phone's copy first). */
export async function unsentOnDevice(owner: string): Promise<number> {
  const outbox = deviceOutbox();
  await outbox.load();
  return outbox.unsent(owner).length;
}

/**
 * After a sign-out: the phone forgets the lists it kept (names and phones) and what the server already
 * has; unsent items stay unless the person chose to delete them.
 */
export async function forgetDevice(owner: string, dropUnsent: boolean): Promise<void> {
  rememberOwner(null);
  rememberDepartment(null);
  await deviceOutbox().signOut(dropUnsent ? owner : undefined);
  await forgetCopies();
}

export interface SignOutDialogProps {
  /** Unsent items of the person signing out; the dialog is open while above 0. */
  count: number;
  onKeep: () => void;
  onDrop: () => void;
  onCancel: () => void;
}

/** 'Cerrar sesión' with items waiting: says so, and asks what to do with them. */
export function SignOutDialog({ count, onKeep, onDrop, onCancel }: SignOutDialogProps) {
  const items = count === 1 ? '1 voto o foto' : `${formatCount(count)} votos o fotos`;
  return (
    <ConfirmDialog
      open={count > 0}
      title="Hay envíos sin terminar"
      message={`${items} de esta cuenta ${count === 1 ? 'está guardado' : 'están guardados'} en este teléfono y todavía no ${count === 1 ? 'llegó' : 'llegaron'} al servidor. Si cierras sesión se quedan aquí y se envían cuando vuelvas a entrar con esta cuenta.`}
      confirmLabel="Cerrar sesión y conservarlos"
      onConfirm={onKeep}
      onCancel={onCancel}
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
        <Link to={paths.outbox} onClick={onCancel} className={buttonClass.secondary}>
          Ver envíos
        </Link>
        <button type="button" className={buttonClass.danger} onClick={onDrop}>
          Borrar envíos y cerrar sesión
        </button>
      </div>
    </ConfirmDialog>
  );
}
