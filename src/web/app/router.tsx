import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from '#web/app/layout/root-layout';

// Route-level code splitting: each page is its own chunk.
const HomePage = lazy(() => import('#web/app/routes/home'));
const AgendaPage = lazy(() => import('#web/app/routes/agenda'));
const NotasPage = lazy(() => import('#web/app/routes/notas'));
const LoginPage = lazy(() => import('#web/app/routes/login'));
const ResultadosPage = lazy(() => import('#web/app/routes/resultados'));
const ValidationPage = lazy(() => import('#web/app/routes/validation'));
const AdminPage = lazy(() => import('#web/app/routes/admin'));
const OutboxPage = lazy(() => import('#web/app/routes/envios'));
const AppStart = lazy(() => import('#web/app/routes/app-start'));
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
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
