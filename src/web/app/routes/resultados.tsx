import { RequireAccess } from '#web/features/auth/components/require-access';
import { CloseResults, LateArrivalsApart } from '#web/features/election/components/close-results';
import { DayBanner, useElectionDay } from '#web/features/election/components/day-status';
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
  const day = useElectionDay({ everySecond: false });
  return (
    <Page wide>
      <CloseResults />
      <ResultsPage
        campaignName={site.data?.campaignName}
        band={
          <>
            <DrillBand large />
            <DayBanner large />
          </>
        }
        // After the close the projector shows the close's count and the late arrivals apart beside the map.
        closeView={
          day.closedAt
            ? (results) => (
                <>
                  <CloseResults projector />
                  <LateArrivalsApart totals={results.candidates} />
                </>
              )
            : undefined
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
