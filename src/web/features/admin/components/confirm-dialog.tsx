import type { ReactNode } from 'react';
import { AdminDialog } from './admin-dialog';
import { buttonClass } from './ui';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a change that cannot simply be taken back (ending sessions, new passwords). */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  danger,
  pending,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <AdminDialog open={open} onClose={() => !pending && onCancel()} title={title} description={message}>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onCancel} disabled={pending}>
          Cancelar
        </button>
        <button
          type="button"
          className={danger ? buttonClass.danger : buttonClass.primary}
          onClick={onConfirm}
          disabled={pending}
        >
          {confirmLabel}
        </button>
      </div>
    </AdminDialog>
  );
}
