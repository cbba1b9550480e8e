import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminDepartment } from '#shared/features/departments/departments';
import type { AdminUser } from '#shared/features/people/people';
import { formatCount } from '#shared/platform/format';
import { useDebouncedValue } from '#web/platform/lib/use-debounced-value';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { useSession } from '#web/platform/session/get-session';
import { buttonClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { DepartmentSelect, SelectField } from '#web/platform/ui/fields';
import { ConfirmDialog, Modal } from '#web/platform/ui/modal';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { Pager } from '#web/platform/ui/pager';
import { useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useEndSessions } from '../api/end-sessions';
import { useUsers } from '../api/get-users';
import { useResetPassword } from '../api/reset-password';
import { useResetSecondFactor } from '../api/reset-second-factor';
import { useUpdateUser } from '../api/update-user';
import { BulkAccessForm } from './bulk-access-form';
import { CreateUserDialog } from './create-user-dialog';
import { OneTimePasswordDialog } from './one-time-password-dialog';
import { type UserAction, UserCard } from './user-card';
import { UserDepartmentsDialog } from './user-departments-dialog';
import { UserSmsPhonesDialog } from './user-sms-phones-dialog';

type Pending = { action: Exclude<UserAction, 'departments' | 'sms-phones'>; user: AdminUser } | null;

const sessionsEndedMessage = (email: string, count: number) =>
  count === 0
    ? `${email} no tenía sesiones abiertas`
    : `Se ${count === 1 ? 'cerró 1 sesión' : `cerraron ${formatCount(count)} sesiones`} de ${email}`;

/** People and access: search accounts, create them, disable, reset passwords, departments one by one or in bulk.
 * `departments`: the department choices (filters, checklists, bulk access), given by the back office. */
export default function PeopleAdminPage({
  departments: departmentList,
  passwordsHere,
}: {
  departments: AdminDepartment[];
  /** False where Firebase Auth checks passwords: nothing here asks for, makes or resets one. */
  passwordsHere: boolean;
}) {
  useDocumentTitle('Personas · Administración');
  const session = useSession();
  const [q, setQ] = useState('');
  const [role, setRole] = useState<'' | 'admin' | 'staff'>('');
  const [status, setStatus] = useState<'' | 'active' | 'disabled'>('');
  const [department, setDepartment] = useState('');
  const [page, setPage] = useState(1);
  const query = { q: useDebouncedValue(q.trim()), role, status, department, page };
  const users = useUsers(query);

  const [creating, setCreating] = useState(false);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [editingPhones, setEditingPhones] = useState<AdminUser | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [secret, setSecret] = useState<{ email: string; password: string } | null>(null);
  const update = useUpdateUser();
  const reset = useResetPassword();
  const endSessions = useEndSessions();
  const resetFactor = useResetSecondFactor();
  const confirmDialog = useDialogOpening(pending !== null);

  const filter =
    <T,>(set: (v: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const onAction = (action: UserAction, user: AdminUser) => {
    if (action === 'departments') setEditing(user);
    else if (action === 'sms-phones') setEditingPhones(user);
    else if (action === 'toggle-disabled' && user.disabled) {
      update.mutate(
        { id: user.id, disabled: false },
        {
          onSuccess: (u) => toast.success(`Cuenta de ${u.email} activada`),
        },
      );
    } else setPending({ action, user });
  };

  const confirm = () => {
    if (!pending) return;
    const { action, user } = pending;
    // The dialog can be closed while this travels: its answer still comes (a toast, the new password),
    // and closes the dialog only if it is still the one that asked.
    const sentFrom = confirmDialog.opening;
    const done = () => {
      if (confirmDialog.isShowing(sentFrom)) setPending(null);
    };
    // The query client's default toast says why.
    const onError = done;
    if (action === 'password') {
      reset.mutateAsync({ id: user.id }).then((result) => {
        done();
        // Shown once only: it opens whether or not the dialog that asked is still there.
        if (result.oneTimePassword) setSecret({ email: result.user.email, password: result.oneTimePassword });
      }, onError);
    } else if (action === 'end-sessions') {
      endSessions.mutateAsync(user.id).then((result) => {
        done();
        toast.success(sessionsEndedMessage(result.user.email, result.sessionsEnded));
      }, onError);
    } else if (action === 'second-factor') {
      resetFactor.mutateAsync(user.id).then((result) => {
        done();
        toast.success(`Segundo factor quitado a ${result.user.email}; sus sesiones se cerraron.`);
      }, onError);
    } else if (action === 'toggle-disabled') {
      update.mutateAsync({ id: user.id, disabled: true }).then((u) => {
        done();
        toast.success(`Cuenta de ${u.email} desactivada`);
      }, onError);
    } else {
      const next = user.role === 'admin' ? 'staff' : 'admin';
      update.mutateAsync({ id: user.id, role: next }).then((u) => {
        done();
        toast.success(`${u.email} ahora es ${u.role === 'admin' ? 'administrador' : 'personal'}`);
      }, onError);
    }
  };

  const confirmText =
    pending &&
    {
      password: {
        title: 'Nueva contraseña',
        message: (
          <>
            Se generará una contraseña temporal para <strong className="break-all">{pending.user.email}</strong> y se
            cerrarán todas sus sesiones abiertas.
          </>
        ),
        label: 'Generar contraseña',
        danger: false,
      },
      'end-sessions': {
        title: 'Cerrar sesión en todos los dispositivos',
        message: (
          <>
            Se cerrarán todas las sesiones abiertas de <strong className="break-all">{pending.user.email}</strong>, en
            cualquier teléfono o computadora. Podrá volver a entrar con su contraseña.
          </>
        ),
        label: 'Cerrar sus sesiones',
        danger: true,
      },
      'second-factor': {
        title: 'Quitar segundo factor',
        message: (
          <>
            <strong className="break-all">{pending.user.email}</strong> entrará solo con su contraseña (o configurará un
            segundo factor nuevo, si es obligatorio) y se cerrarán sus sesiones abiertas. Queda en la auditoría.
          </>
        ),
        label: 'Quitar segundo factor',
        danger: true,
      },
      'toggle-disabled': {
        title: 'Desactivar cuenta',
        message: (
          <>
            <strong className="break-all">{pending.user.email}</strong> no podrá iniciar sesión y se cerrarán sus
            sesiones abiertas. Podrás activarla de nuevo.
          </>
        ),
        label: 'Desactivar',
        danger: true,
      },
      'toggle-role': {
        title: pending.user.role === 'admin' ? 'Quitar administrador' : 'Hacer administrador',
        message:
          pending.user.role === 'admin' ? (
            <>
              <strong className="break-all">{pending.user.email}</strong> dejará de ver Resultados, Notas, Agenda y la
              administración (salvo las listas en las que esté).
            </>
          ) : (
            <>
              <strong className="break-all">{pending.user.email}</strong> podrá usar toda la administración, Resultados,
              Notas y Agenda.
            </>
          ),
        label: pending.user.role === 'admin' ? 'Quitar administrador' : 'Hacer administrador',
        danger: pending.user.role === 'admin',
      },
    }[pending.action];

  return (
    <section aria-labelledby="personas-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="personas-titulo" className="text-2xl font-bold text-stone-900">
          Personas
        </h2>
        <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:w-auto">
          <button type="button" className={buttonClass.secondary} onClick={() => setBulkOpen(true)}>
            Acceso en bloque
          </button>
          <button type="button" className={buttonClass.primary} onClick={() => setCreating(true)}>
            Nueva persona
          </button>
        </div>
      </div>

      <search>
        <form className="grid grid-cols-2 gap-3 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
          <div className="col-span-2 flex flex-col gap-1.5 lg:col-span-1">
            <label htmlFor="personas-buscar" className={labelClass}>
              Buscar por correo
            </label>
            <input
              id="personas-buscar"
              type="search"
              className={inputClass}
              value={q}
              onChange={(e) => filter(setQ)(e.target.value)}
              autoCapitalize="none"
              spellCheck={false}
            />
          </div>
          <SelectField
            id="personas-rol"
            label="Rol"
            value={role}
            onChange={(e) => filter(setRole)(e.target.value as typeof role)}
          >
            <option value="">Todos</option>
            <option value="admin">Administradores</option>
            <option value="staff">Personal</option>
          </SelectField>
          <SelectField
            id="personas-estado"
            label="Estado"
            value={status}
            onChange={(e) => filter(setStatus)(e.target.value as typeof status)}
          >
            <option value="">Todas</option>
            <option value="active">Activas</option>
            <option value="disabled">Desactivadas</option>
          </SelectField>
          <div className="col-span-2 lg:col-span-1">
            <DepartmentSelect
              id="personas-departamento"
              label="Departamento"
              value={department}
              onChange={(e) => filter(setDepartment)(e.target.value)}
              departments={departmentList}
            />
          </div>
        </form>
      </search>

      {users.isPending ? (
        <Spinner />
      ) : users.isError ? (
        <ErrorNotice message={users.error.message} onRetry={() => users.refetch()} />
      ) : (
        <div aria-busy={users.isFetching}>
          {users.data.items.length === 0 ? (
            <p className="rounded-lg bg-white p-4 text-stone-700">Ninguna persona coincide con la búsqueda.</p>
          ) : (
            <ul className="grid gap-3 lg:grid-cols-2" aria-label="Personas">
              {users.data.items.map((u) => (
                <li key={u.id}>
                  <UserCard
                    user={u}
                    isSelf={u.email === session.data?.user?.email}
                    onAction={onAction}
                    passwordsHere={passwordsHere}
                  />
                </li>
              ))}
            </ul>
          )}
          <Pager
            page={users.data.page}
            pageSize={users.data.pageSize}
            total={users.data.total}
            onPage={setPage}
            noun="personas"
          />
        </div>
      )}

      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        departments={departmentList}
        passwordsHere={passwordsHere}
        onCreated={(result) => {
          if (result.oneTimePassword) setSecret({ email: result.user.email, password: result.oneTimePassword });
        }}
      />
      <UserDepartmentsDialog user={editing} departments={departmentList} onClose={() => setEditing(null)} />
      <UserSmsPhonesDialog user={editingPhones} onClose={() => setEditingPhones(null)} />
      <Modal
        open={bulkOpen}
        onClose={() => setBulkOpen(false)}
        title="Acceso en bloque"
        description="Pega una lista de correos para dar o quitar acceso a un departamento. Revisa antes de aplicar."
        wide
      >
        <BulkAccessForm departments={departmentList} />
        <div className="mt-4 flex justify-end">
          <button type="button" className={buttonClass.secondary} onClick={() => setBulkOpen(false)}>
            Cerrar
          </button>
        </div>
      </Modal>
      <ConfirmDialog
        open={pending !== null}
        title={confirmText?.title ?? ''}
        message={confirmText?.message}
        confirmLabel={confirmText?.label ?? ''}
        danger={confirmText?.danger}
        pending={update.isPending || reset.isPending || endSessions.isPending || resetFactor.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      <OneTimePasswordDialog value={secret} onClose={() => setSecret(null)} />
    </section>
  );
}
