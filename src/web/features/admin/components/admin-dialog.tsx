import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';

export interface AdminDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Wider panel for lists and reports. */
  wide?: boolean;
  testId?: string;
}

/**
 * The back office's dialog: a sheet from the bottom on phones, a centred panel on larger screens.
 * Headless UI keeps focus inside, closes on Escape and gives focus back to what opened it.
 */
export function AdminDialog({ open, onClose, title, description, children, wide = false, testId }: AdminDialogProps) {
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
