import { useCallback, useRef } from 'react';
import { toast } from 'react-toastify/unstyled';
import { showErrorToast } from '#web/platform/lib/mutation-errors';

export interface DialogOpening {
  /** This opening of the dialog (a new number each time it opens), null while it is closed. */
  opening: number | null;
  /** Whether the person still looks at that opening: not closed, nor closed and opened again since. */
  isShowing: (opening: number | null) => boolean;
}

/**
 * A dialog that sends a request can be closed while the request is on the network (docs/decisions/057):
 * the request goes on, and when its answer arrives the dialog may be closed, or open again for something
 * else. A request keeps the opening it was sent from; its answer closes the dialog or shows an error in
 * it only if that opening is still on screen, and otherwise says what happened in a toast.
 */
export function useDialogOpening(open: boolean): DialogOpening {
  const count = useRef(0);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current) count.current += 1;
  wasOpen.current = open;
  const opening = open ? count.current : null;
  const showing = useRef(opening);
  showing.current = opening;
  const isShowing = useCallback((sent: number | null) => sent !== null && showing.current === sent, []);
  return { opening, isShowing };
}

/**
 * The failure of a request sent from a dialog that shows its own errors (its mutation `showsOwnError`):
 * in the dialog, with `inDialog`, if it still shows the opening `sentFrom`; otherwise in the app's
 * error toast, as any other failed change.
 */
export function showErrorFrom(
  dialog: DialogOpening,
  sentFrom: number | null,
  error: Error,
  inDialog: (message: string) => void,
): void {
  if (dialog.isShowing(sentFrom)) inDialog(error.message);
  else showErrorToast(error.message);
}

/**
 * The answer to a confirmation sent from `dialog` (deleting, say): a success said in a toast, a failure
 * in the default toast of every failed mutation; the dialog closed with `close` only if it still shows
 * the opening the request was sent from.
 */
export function answerInToast<T>(
  dialog: DialogOpening,
  request: Promise<T>,
  success: (result: T) => string,
  close: () => void,
): void {
  const sentFrom = dialog.opening;
  const settled = () => {
    if (dialog.isShowing(sentFrom)) close();
  };
  request.then(
    (result) => {
      toast.success(success(result));
      settled();
    },
    // The query client's default toast said why.
    () => settled(),
  );
}
