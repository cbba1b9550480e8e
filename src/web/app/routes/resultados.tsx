import { Page } from '../../components/ui/page';
import { paths } from '../../config/paths';
import { RequireAccess } from '../../features/auth/components/require-access';
import { ResultsPage } from '../../features/results/components/results-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { NotFoundScreen } from './not-found';

function ResultadosShell() {
  useDocumentTitle('Resultados');
  return (
    <Page wide>
      <ResultsPage />
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
