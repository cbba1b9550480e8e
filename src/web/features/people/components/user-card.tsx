import type { AdminUser } from '#shared/features/people/people';
import { formatDateTime } from '#web/platform/lib/format';
import { badgeClass, buttonClass, cardClass } from '#web/platform/ui/back-office';

export type UserAction =
  | 'departments'
  | 'sms-phones'
  | 'password'
  | 'end-sessions'
  | 'second-factor'
  | 'toggle-disabled'
  | 'toggle-role';

export interface UserCardProps {
  user: AdminUser;
  /** The signed-in admin's own card offers no changes to their own account. */
  isSelf: boolean;
  onAction: (action: UserAction, user: AdminUser) => void;
  /** False where Firebase Auth checks passwords: no 'Nueva contraseña'. */
  passwordsHere?: boolean;
}

const SHOWN_DEPARTMENTS = 6;

/**
 * One account: e-mail, role, state, last sign-in, second factor, departments, and what can be done with it
 * ('Quitar segundo factor' only where there is one).
 */
export function UserCard({ user, isSelf, onAction, passwordsHere = true }: UserCardProps) {
  const headingId = `persona-${user.id}`;
  const extra = user.departments.length - SHOWN_DEPARTMENTS;
  return (
    <article aria-labelledby={headingId} className={`${cardClass} flex h-full flex-col gap-2`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="min-w-0 break-all text-lg font-bold text-stone-900">
          {user.email}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          <span className={user.role === 'admin' ? badgeClass.brand : badgeClass.neutral}>
            {user.role === 'admin' ? 'Administrador' : 'Personal'}
          </span>
          {user.disabled && <span className={badgeClass.danger}>Desactivada</span>}
          {isSelf && <span className={badgeClass.neutral}>Tú</span>}
        </div>
      </div>
      <p className="text-sm text-stone-700">
        {user.lastLoginAt ? `Último ingreso: ${formatDateTime(user.lastLoginAt)}` : 'Nunca ha iniciado sesión'}
      </p>
      <p>
        <span className={user.secondFactor ? badgeClass.ok : badgeClass.neutral}>
          {user.secondFactor ? 'Segundo factor: activo' : 'Segundo factor: no'}
        </span>
      </p>
      <div className="text-sm text-stone-800">
        {user.departments.length === 0 ? (
          <p className="text-stone-600">Sin departamentos</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" aria-label="Departamentos">
            {user.departments.slice(0, SHOWN_DEPARTMENTS).map((d) => (
              <li key={d.slug} className={badgeClass.neutral}>
                {d.title}
              </li>
            ))}
            {extra > 0 && <li className="px-1 py-0.5 text-stone-600">y {extra} más</li>}
          </ul>
        )}
      </div>
      {user.smsPhones.length > 0 && (
        <p className="text-sm text-stone-700">
          Vota por SMS desde <span className="tabular-nums">{user.smsPhones.join(', ')}</span>
        </p>
      )}
      <div className="mt-auto flex flex-wrap gap-2 pt-2">
        <button
          type="button"
          className={buttonClass.small}
          aria-label={`Departamentos: ${user.email}`}
          onClick={() => onAction('departments', user)}
        >
          Departamentos
        </button>
        <button
          type="button"
          className={buttonClass.small}
          aria-label={`Números para SMS: ${user.email}`}
          onClick={() => onAction('sms-phones', user)}
        >
          Números para SMS
        </button>
        {!isSelf && (
          <>
            {passwordsHere && (
              <button
                type="button"
                className={buttonClass.small}
                aria-label={`Nueva contraseña: ${user.email}`}
                onClick={() => onAction('password', user)}
              >
                Nueva contraseña
              </button>
            )}
            {!user.disabled && (
              <button
                type="button"
                className={buttonClass.small}
                aria-label={`Cerrar sesión en todos los dispositivos: ${user.email}`}
                onClick={() => onAction('end-sessions', user)}
              >
                Cerrar sesión en todos los dispositivos
              </button>
            )}
            {user.secondFactor && (
              <button
                type="button"
                className={buttonClass.small}
                aria-label={`Quitar segundo factor: ${user.email}`}
                onClick={() => onAction('second-factor', user)}
              >
                Quitar segundo factor
              </button>
            )}
            <button
              type="button"
              className={buttonClass.small}
              aria-label={`${user.disabled ? 'Activar' : 'Desactivar'}: ${user.email}`}
              onClick={() => onAction('toggle-disabled', user)}
            >
              {user.disabled ? 'Activar' : 'Desactivar'}
            </button>
            <button
              type="button"
              className={buttonClass.small}
              aria-label={`${user.role === 'admin' ? 'Quitar administrador' : 'Hacer administrador'}: ${user.email}`}
              onClick={() => onAction('toggle-role', user)}
            >
              {user.role === 'admin' ? 'Quitar administrador' : 'Hacer administrador'}
            </button>
          </>
        )}
      </div>
    </article>
  );
}
