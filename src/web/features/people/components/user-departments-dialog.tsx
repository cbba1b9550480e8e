import { useEffect, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminDepartment } from '#shared/features/departments/departments';
import type { AdminUser } from '#shared/features/people/people';
import { buttonClass } from '#web/platform/ui/back-office';
import { Modal } from '#web/platform/ui/modal';
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
  const [chosen, setChosen] = useState<string[]>([]);
  const save = useSetUserDepartments();
  useEffect(() => {
    if (user) setChosen(user.departments.map((d) => d.slug));
  }, [user]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!user) return;
    save.mutate(
      { id: user.id, departments: chosen },
      {
        onSuccess: (updated) => {
          toast.success(`Departamentos de ${updated.email} guardados`);
          onClose();
        },
        onError: (error) => toast.error(error.message),
      },
    );
  };

  return (
    <Modal
      open={user !== null}
      onClose={() => !save.isPending && onClose()}
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
        <DepartmentChecklist departments={departments} selected={chosen} onChange={setChosen} />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose} disabled={save.isPending}>
            Cancelar
          </button>
          <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
            Guardar departamentos
          </button>
        </div>
      </form>
    </Modal>
  );
}
