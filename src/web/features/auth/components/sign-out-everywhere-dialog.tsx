import { ConfirmDialog } from '#web/platform/ui/modal';

export interface SignOutEverywhereDialogProps {
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
}

/** Asks before "Cerrar sesión en todos los dispositivos": it signs this device out too. */
export function SignOutEverywhereDialog({ onConfirm, onCancel, pending }: SignOutEverywhereDialogProps) {
  return (
    <ConfirmDialog
      open
      title="Cerrar sesión en todos los dispositivos"
      message="Se cerrará tu sesión en este y en todos los teléfonos y computadoras donde entraste con tu cuenta. Para volver a entrar necesitarás tu contraseña."
      confirmLabel="Cerrar todas las sesiones"
      danger
      pending={pending}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

export default SignOutEverywhereDialog;
