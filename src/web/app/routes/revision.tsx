import { Navigate, useLocation } from 'react-router';
import { messages } from '#shared/platform/messages';
import { ReviewPage } from '#web/features/photo-review/components/review-page';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { ErrorNotice, Page, PageLoading } from '#web/platform/ui/page';

/** /revision: the photo review queue, for admins and the reviewers they named (the server decides). */
export default function RevisionRoute() {
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
  return <ReviewPage isAdmin={session.data.user.role === 'admin'} />;
}
