import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from '#web/app/layout/root-layout';
import AgendaPage from '#web/app/routes/agenda';
import HomePage from '#web/app/routes/home';
import NotasPage from '#web/app/routes/notas';

// The three public pages come rendered by the server and are hydrated at once, so their code is in the
// entry chunk (a lazy page would have to load before hydration could finish). Every other page is a
// chunk of its own.
const LoginPage = lazy(() => import('#web/app/routes/login'));
const ResultadosPage = lazy(() => import('#web/app/routes/resultados'));
const ValidationPage = lazy(() => import('#web/app/routes/validation'));
const AdminPage = lazy(() => import('#web/app/routes/admin'));
const OutboxPage = lazy(() => import('#web/app/routes/envios'));
const FieldRoute = lazy(() => import('#web/app/routes/campo'));
const AppStart = lazy(() => import('#web/app/routes/app-start'));
const AccountRoute = lazy(() => import('#web/app/routes/cuenta'));
const RevisionRoute = lazy(() => import('#web/app/routes/revision'));
const NotFoundScreen = lazy(() => import('#web/app/routes/not-found'));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="agenda" element={<AgendaPage />} />
        <Route path="notas" element={<NotasPage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="resultados" element={<ResultadosPage />} />
        <Route path="validation" element={<AppStart />} />
        <Route path="validation/:slug" element={<ValidationPage />} />
        <Route path="envios" element={<OutboxPage />} />
        <Route path="cuenta" element={<AccountRoute />} />
        <Route path="campo" element={<FieldRoute />} />
        <Route path="campo/:slug" element={<FieldRoute />} />
        <Route path="revision" element={<RevisionRoute />} />
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
