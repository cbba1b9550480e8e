import { Page } from '../../components/ui/page';
import { paths } from '../../config/paths';
import { RequireAccess } from '../../features/auth/components/require-access';
import { useDocumentTitle } from '../../lib/use-document-title';
import { NotFoundScreen } from './not-found';

function ResultadosShell() {
  useDocumentTitle('Resultados');
  return (
    <Page wide>
      <h1 className="text-3xl font-black tracking-tight text-brand">RESULTADOS POSTULACIONES</h1>
    </Page>
  );
}

export default function ResultadosRoute() {
  return (
    <RequireAccess path={paths.resultados} notFound={<NotFoundScreen />}>
      <ResultadosShell />
    </RequireAccess>
  );
}
