import { RequireAccess } from '#web/features/auth/components/require-access';
import { ResultsPage } from '#web/features/results/components/results-page';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { Page } from '#web/platform/ui/page';
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
