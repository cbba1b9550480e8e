import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { buttonClass } from './back-office';

export interface SubmitButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** The form's `sending` (useDraftForm): its request is on the network. */
  sending: boolean;
  /** What the button says while sending ('Guardando…'); without it, its usual text. */
  sendingLabel?: ReactNode;
  /** 'button' for a confirm button or one of two buttons that send the same form (it calls `submit` itself). */
  type?: 'submit' | 'button';
}

/**
 * The button that sends a back-office form (decision 066): disabled and marked busy while the form's
 * request is on the network. The form's hook ignores a second submit meanwhile; this says so on screen.
 */
export function SubmitButton({
  sending,
  sendingLabel,
  type = 'submit',
  disabled,
  className = buttonClass.primary,
  children,
  ...button
}: SubmitButtonProps) {
  return (
    <button
      type={type}
      className={className}
      disabled={sending || disabled}
      aria-busy={sending || undefined}
      {...button}
    >
      {sending && sendingLabel ? sendingLabel : children}
    </button>
  );
}
