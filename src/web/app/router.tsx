import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from './layout/root-layout';

// Route-level code splitting: each page is its own chunk.
const HomePage = lazy(() => import('./routes/home'));
const AgendaPage = lazy(() => import('./routes/agenda'));
const NotasPage = lazy(() => import('./routes/notas'));
const LoginPage = lazy(() => import('./routes/login'));
const ResultadosPage = lazy(() => import('./routes/resultados'));
const ValidationPage = lazy(() => import('./routes/validation'));
const AdminPage = lazy(() => import('./routes/admin'));
const NotFoundScreen = lazy(() => import('./routes/not-found'));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="agenda" element={<AgendaPage />} />
        <Route path="notas" element={<NotasPage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="resultados" element={<ResultadosPage />} />
        <Route path="validation/:slug" element={<ValidationPage />} />
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
