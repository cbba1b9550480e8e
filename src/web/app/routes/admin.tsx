import { lazy, Suspense } from 'react';
import { Link, NavLink, Route, Routes } from 'react-router';
import { RequireAccess } from '#web/features/auth/components/require-access';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { Page, Spinner } from '#web/platform/ui/page';
import { NotFoundScreen } from './not-found';

/** Back-office sections; each is its own chunk. The server decides who may use each API. */
const SECTIONS = [
  {
    path: 'personas',
    title: 'Personas',
    Page: lazy(() => import('./admin-people')),
  },
  {
    path: 'departamentos',
    title: 'Departamentos',
    Page: lazy(() => import('./admin-departments')),
  },
  {
    path: 'candidatos',
    title: 'Candidatos',
    Page: lazy(() => import('#web/features/candidates/components/candidates-admin-page')),
  },
  { path: 'agenda', title: 'Agenda', Page: lazy(() => import('#web/features/agenda/components/agenda-admin-page')) },
  { path: 'notas', title: 'Notas', Page: lazy(() => import('#web/features/notas/components/notas-admin-page')) },
  {
    path: 'registros',
    title: 'Registros',
    Page: lazy(() => import('./admin-records')),
  },
  {
    path: 'ajustes',
    title: 'Ajustes',
    Page: lazy(() => import('./admin-settings')),
  },
  {
    path: 'auditoria',
    title: 'Auditoría',
    Page: lazy(() => import('./admin-audit')),
  },
  {
    path: 'jornada',
    title: 'Jornada',
    Page: lazy(() => import('#web/features/election/components/election-admin-page')),
  },
  { path: 'mensajes', title: 'Mensajes', Page: lazy(() => import('./admin-sms')) },
] as const;

export type AdminSectionPath = (typeof SECTIONS)[number]['path'];

/** /admin itself; each section names the tab after itself. */
function ChooseSection() {
  useDocumentTitle('Administración');
  return <p className="text-stone-600">Elige una sección.</p>;
}

function AdminShell({ allowed }: { allowed: readonly string[] }) {
  const isAdmin = useSession().data?.user?.role === 'admin';
  const sections = SECTIONS.filter((s) => allowed.includes(s.path));
  return (
    <Page wide>
      <h1 className="mb-4 text-3xl font-black tracking-tight text-brand">Administración</h1>
      {isAdmin && (
        <p className="-mt-2 mb-4">
          <Link
            to={paths.field()}
            className="font-semibold text-brand underline underline-offset-4 hover:text-brand-dark"
          >
            Ver el campo: quién tiene envíos pendientes en cada municipio
          </Link>
        </p>
      )}
      <nav aria-label="Secciones de administración" className="mb-6 overflow-x-auto">
        <ul className="flex gap-2 whitespace-nowrap lg:flex-wrap">
          {sections.map((s) => (
            <li key={s.path}>
              <NavLink
                to={`${paths.admin}/${s.path}`}
                className={({ isActive }) =>
                  `block rounded-full border px-4 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-brand ${
                    isActive
                      ? 'border-brand bg-brand text-white'
                      : 'border-stone-300 bg-white text-stone-800 hover:border-brand'
                  }`
                }
              >
                {s.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Suspense fallback={<Spinner />}>
        <Routes>
          <Route index element={<ChooseSection />} />
          {sections.map((s) => (
            <Route key={s.path} path={`${s.path}/*`} element={<s.Page />} />
          ))}
          <Route path="*" element={<NotFoundScreen />} />
        </Routes>
      </Suspense>
    </Page>
  );
}

/**
 * /admin: open to whoever has the 'Administración' entry in their menu (the server decides: admins see
 * every section; the Agenda and Notas lists see their own). `adminSections` comes from the session.
 */
export default function AdminRoute() {
  return (
    <RequireAccess path={paths.admin} notFound={<NotFoundScreen />}>
      <AdminSectionsFromSession render={(allowed) => <AdminShell allowed={allowed} />} />
    </RequireAccess>
  );
}

/** Which sections the signed-in person may use: those the session's 'Administración' entry lists. */
function AdminSectionsFromSession({ render }: { render: (allowed: readonly string[]) => React.ReactNode }) {
  const session = useSession();
  const entry = session.data?.menu.find((e) => e.path === paths.admin);
  return <>{render(entry?.sections ?? [])}</>;
}
