import { toast } from 'react-toastify/unstyled';
import { ONE_TIME_PASSWORD_HOURS } from '#shared/platform/constants';
import { buttonClass } from '#web/platform/ui/back-office';
import { Modal } from '#web/platform/ui/modal';

export interface OneTimePasswordDialogProps {
  /** Null while closed. */
  value: { email: string; password: string } | null;
  onClose: () => void;
}

/** Shows a one-time password once, with a copy button; the server never shows it again. */
export function OneTimePasswordDialog({ value, onClose }: OneTimePasswordDialogProps) {
  const copy = async () => {
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value.password);
      toast.success('Contraseña copiada');
    } catch {
      toast.error('No se pudo copiar: selecciona la contraseña y cópiala a mano.');
    }
  };
  return (
    <Modal
      open={value !== null}
      onClose={onClose}
      title="Contraseña temporal"
      description={
        <>
          Para <strong className="break-all font-semibold">{value?.email}</strong>. Dásela por un canal seguro y pídele
          que no la comparta.
        </>
      }
      testId="one-time-password"
    >
      <p
        className="select-all rounded-lg border-2 border-dashed border-stone-400 bg-stone-50 px-4 py-3 text-center font-mono text-2xl font-bold tracking-wider text-stone-900"
        data-testid="one-time-password-value"
      >
        {value?.password}
      </p>
      <p className="mt-3 rounded-lg bg-amber-50 p-3 text-amber-950" role="note">
        <strong>Cópiala ahora:</strong> no se volverá a mostrar. Vale {ONE_TIME_PASSWORD_HOURS} horas. Si se pierde o
        vence sin usarse, restablece la contraseña otra vez.
      </p>
      <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          Listo
        </button>
        <button type="button" className={buttonClass.primary} onClick={copy}>
          Copiar contraseña
        </button>
      </div>
    </Modal>
  );
}
