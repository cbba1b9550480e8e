import { Navigate, useLocation, useParams } from 'react-router';
import { messages } from '#shared/platform/messages';
import { Outstanding } from '#web/features/election/components/outstanding';
import { FieldPage } from '#web/features/field/components/field-page';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { ErrorNotice, Page, PageLoading } from '#web/platform/ui/page';

/**
 * /campo and /campo/:slug: for anyone signed in; the server says which departments they may see
 * (admins every one, others those on their lists) and answers 404 for the rest.
 */
export default function FieldRoute() {
  const { slug } = useParams();
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <PageLoading label={messages.loading.session} />;
  if (session.data === undefined) {
    return (
      <Page>
        <ErrorNotice message={session.error?.message ?? ''} onRetry={() => session.refetch()} />
      </Page>
    );
  }
  if (!session.data.user) {
    if (session.data.signedOut) return null;
    return <Navigate to={`${paths.login}?next=${encodeURIComponent(location.pathname)}`} replace />;
  }
  // After the close, 'Por llegar' (of the department shown, or of all) above the field's figures.
  return <FieldPage slug={slug} afterClose={<Outstanding slug={slug} />} />;
}
