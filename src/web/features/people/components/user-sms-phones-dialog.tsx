import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { type AdminUser, setSmsPhonesBodySchema } from '#shared/features/people/people';
import { buttonClass } from '#web/platform/ui/back-office';
import { TextAreaField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useSetSmsPhones } from '../api/set-sms-phones';

const linesOf = (text: string) =>
  text
    .split(/[\n,;]/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The mobile numbers a person votes by SMS from, one a line; the server checks and writes them one way. */
export function UserSmsPhonesDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const form = useDraftForm(setSmsPhonesBodySchema, () => ({ phones: '' }), {
    body: (draft) => ({ phones: linesOf(draft.phones) }),
  });
  const { reset } = form;
  const save = useSetSmsPhones();
  useEffect(() => {
    if (user) reset({ phones: user.smsPhones.join('\n') });
  }, [user, reset]);

  const shown = useDialogOpening(user !== null);
  const submit = form.submit(({ phones }) => {
    if (!user) return;
    const sentFrom = shown.opening;
    return save.mutateAsync({ id: user.id, phones }).then(
      (updated) => {
        toast.success(`Números para SMS de ${updated.email} guardados`);
        if (shown.isShowing(sentFrom)) onClose();
      },
      // The query client's default toast says why (a number that is not one, or another account's).
      () => undefined,
    );
  });

  return (
    <Modal
      open={user !== null}
      onClose={onClose}
      title="Números para votar por SMS"
      description={
        <>
          Los móviles desde los que <strong className="break-all font-semibold">{user?.email}</strong> vota por SMS (V
          código candidatos). Un SMS de otro número se rechaza.
        </>
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextAreaField
          label="Números"
          hint="Uno por línea, hasta 5, como se escriban: 0414-123 45 67 o +58 414 1234567."
          rows={3}
          inputMode="tel"
          autoComplete="off"
          {...form.field('phones')}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Guardando…">
            Guardar números
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
