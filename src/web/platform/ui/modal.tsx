import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { buttonClass } from './back-office';
import { SubmitButton } from './submit-button';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Wider panel for forms with several columns and reports. */
  wide?: boolean;
  testId?: string;
}

/**
 * A dialog: a sheet from the bottom on phones, a centred panel on larger screens. Headless UI keeps
 * focus inside, closes on Escape and gives focus back to what opened it.
 */
export function Modal({ open, onClose, title, description, children, wide = false, testId }: ModalProps) {
  return (
    <Dialog open={open} onClose={onClose} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-black/50" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center sm:items-center sm:p-4">
          <DialogPanel
            data-testid={testId}
            className={`w-full ${wide ? 'max-w-2xl' : 'max-w-lg'} max-h-[92dvh] overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:rounded-2xl sm:p-6`}
          >
            <DialogTitle className="text-xl font-bold text-stone-900">{title}</DialogTitle>
            {description && <Description className="mt-1 text-stone-700">{description}</Description>}
            <div className="mt-4">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Its request is on the network: the confirm button waits (nothing is sent twice); closing does not. */
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}

/**
 * Asks before a change that cannot simply be taken back (deleting, voiding). It can always be closed
 * (Escape, 'Cancelar'), also while its request is on the network: the request goes on and its outcome
 * is said in a toast (docs/decisions/057).
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  danger,
  pending,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  return (
    <Modal open={open} onClose={onCancel} title={title} description={message}>
      {children}
      <div className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onCancel}>
          Cancelar
        </button>
        <SubmitButton
          type="button"
          sending={pending ?? false}
          className={danger ? buttonClass.danger : buttonClass.primary}
          onClick={onConfirm}
        >
          {confirmLabel}
        </SubmitButton>
      </div>
    </Modal>
  );
}
