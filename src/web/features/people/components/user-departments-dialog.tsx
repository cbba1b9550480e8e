import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { type AdminUser, setUserDepartmentsBodySchema } from '#shared/features/people/people';
import { buttonClass } from '#web/platform/ui/back-office';
import { Modal } from '#web/platform/ui/modal';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useSetUserDepartments } from '../api/set-user-departments';
import { DepartmentChecklist } from './department-checklist';

export interface UserDepartmentsDialogProps {
  /** Null while closed. */
  user: AdminUser | null;
  departments: Pick<AdminDepartment, 'slug' | 'title' | 'kind'>[];
  onClose: () => void;
}

/** The departments whose allow-list holds a person's e-mail: tick and untick, then save. */
export function UserDepartmentsDialog({ user, departments, onClose }: UserDepartmentsDialogProps) {
  const form = useDraftForm(setUserDepartmentsBodySchema, () => ({ departments: [] as string[] }));
  const { draft, errors, set, reset } = form;
  const save = useSetUserDepartments();
  useEffect(() => {
    if (user) reset({ departments: user.departments.map((d) => d.slug) });
  }, [user, reset]);

  // Closing never waits for the network: the answer then comes as a toast only.
  const shown = useDialogOpening(user !== null);
  const submit = form.submit(({ departments }) => {
    if (!user) return;
    const sentFrom = shown.opening;
    return save.mutateAsync({ id: user.id, departments }).then(
      (updated) => {
        toast.success(`Departamentos de ${updated.email} guardados`);
        if (shown.isShowing(sentFrom)) onClose();
      },
      // The query client's default toast says why.
      () => undefined,
    );
  });

  return (
    <Modal
      open={user !== null}
      onClose={onClose}
      title="Departamentos"
      description={
        <>
          Lo que puede abrir <strong className="break-all font-semibold">{user?.email}</strong>. El cambio vale desde su
          próxima acción, sin volver a iniciar sesión.
        </>
      }
      wide
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <DepartmentChecklist
          departments={departments}
          selected={draft.departments}
          onChange={(chosen) => set('departments', chosen)}
        />
        {errors.departments && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            {errors.departments}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <SubmitButton sending={form.sending} sendingLabel="Guardando…">
            Guardar departamentos
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
