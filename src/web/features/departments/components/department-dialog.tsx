import { type ReactNode, useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { type AdminDepartmentDetail, updateDepartmentBodySchema } from '#shared/features/departments/departments';
import { formatCount } from '#shared/platform/format';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { badgeClass, buttonClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { type DialogOpening, showErrorFrom, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useDepartment } from '../api/get-department';
import { useRemoveDepartmentMember } from '../api/remove-department-member';
import { useUpdateDepartment } from '../api/update-department';

export interface DepartmentDialogProps {
  /** Null while closed. */
  slug: string | null;
  onClose: () => void;
  /** The pasted-list form of the people screens, for this department (composed by the back office). */
  bulkAccess: (department: AdminDepartmentDetail) => ReactNode;
}

/** One department: its title, and its allow-list (remove one by one, add or remove a pasted list). */
export function DepartmentDialog({ slug, onClose, bulkAccess }: DepartmentDialogProps) {
  const department = useDepartment(slug);
  const shown = useDialogOpening(slug !== null);
  return (
    <Modal
      open={slug !== null}
      onClose={onClose}
      title={department.data ? department.data.title : 'Departamento'}
      description={department.data ? `Ruta ${department.data.path}` : undefined}
      wide
      testId="department-dialog"
    >
      {department.isPending ? (
        <Spinner />
      ) : department.isError ? (
        <ErrorNotice message={department.error.message} onRetry={() => department.refetch()} />
      ) : (
        <DepartmentEditor department={department.data} bulkAccess={bulkAccess} shown={shown} />
      )}
      <div className="mt-6 flex justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          Cerrar
        </button>
      </div>
    </Modal>
  );
}

function DepartmentEditor({
  department,
  bulkAccess,
  shown,
}: {
  department: AdminDepartmentDetail;
  bulkAccess: DepartmentDialogProps['bulkAccess'];
  shown: DialogOpening;
}) {
  const form = useDraftForm(updateDepartmentBodySchema, () => ({ title: department.title }));
  const { field, reset } = form;
  const update = useUpdateDepartment(showsOwnError);
  const remove = useRemoveDepartmentMember();
  useEffect(() => reset({ title: department.title }), [department.title, reset]);

  // The server's answer shows where a wrong title does: under the field; in a toast if the dialog was
  // closed meanwhile (closing never waits for the network).
  const saveTitle = form.submit(({ title }) => {
    const sentFrom = shown.opening;
    return update.mutateAsync({ slug: department.slug, title }).then(
      (d) => toast.success(`Título guardado: ${d.title}`),
      (e: Error) => showErrorFrom(shown, sentFrom, e, (message) => form.showErrors({ title: message })),
    );
  });

  const removeEmail = (email: string) =>
    remove.mutate(
      { slug: department.slug, email },
      { onSuccess: () => toast.success(`${email} ya no tiene acceso a ${department.title}`) },
    );

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={saveTitle} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <TextField label="Título" maxLength={200} {...field('title')} />
        </div>
        <SubmitButton sending={form.sending} className={`${buttonClass.primary} sm:mt-8`}>
          Guardar título
        </SubmitButton>
      </form>

      <section aria-labelledby="lista-acceso-titulo">
        <h3 id="lista-acceso-titulo" className="text-lg font-bold text-stone-900">
          Lista de acceso ({formatCount(department.emails.length)})
        </h3>
        <p className="text-sm text-stone-600">
          {department.kind === 'page'
            ? 'Los administradores entran siempre; esta lista añade a otras personas.'
            : 'Solo estas personas ven el municipio o parroquia.'}
        </p>
        {department.emails.length === 0 ? (
          <p className="mt-2 rounded-lg bg-stone-50 p-3 text-stone-700">Nadie está en la lista.</p>
        ) : (
          <ul className="mt-2 flex flex-col divide-y divide-stone-200 rounded-lg border border-stone-200">
            {department.emails.map((m) => (
              <li key={m.email} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <span className="min-w-0 break-all text-stone-900">{m.email}</span>
                <span className="flex items-center gap-2">
                  {m.account === null && <span className={badgeClass.neutral}>Sin cuenta</span>}
                  {m.account === 'disabled' && <span className={badgeClass.danger}>Desactivada</span>}
                  {m.role === 'admin' && <span className={badgeClass.brand}>Administrador</span>}
                  <button
                    type="button"
                    className={buttonClass.small}
                    aria-label={`Quitar: ${m.email}`}
                    disabled={remove.isPending}
                    onClick={() => removeEmail(m.email)}
                  >
                    Quitar
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="anadir-correos-titulo">
        <h3 id="anadir-correos-titulo" className="mb-2 text-lg font-bold text-stone-900">
          Añadir o quitar varios correos
        </h3>
        {bulkAccess(department)}
      </section>
    </div>
  );
}
