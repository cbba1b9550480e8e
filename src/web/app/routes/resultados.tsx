import { RequireAccess } from '#web/features/auth/components/require-access';
import { CloseResults } from '#web/features/election/components/close-results';
import { DayBanner } from '#web/features/election/components/day-status';
import { DrillBand } from '#web/features/election/components/drill-band';
import { ResultsPage } from '#web/features/results/components/results-page';
import { useSiteInfo } from '#web/features/settings/api/get-site-info';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { Page } from '#web/platform/ui/page';
import { NotFoundScreen } from './not-found';

function ResultadosShell() {
  useDocumentTitle('Resultados');
  const site = useSiteInfo();
  return (
    <Page wide>
      <CloseResults />
      <ResultsPage
        campaignName={site.data?.campaignName}
        band={
          <>
            <DrillBand />
            <DayBanner large />
            <CloseResults large />
          </>
        }
      />
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
