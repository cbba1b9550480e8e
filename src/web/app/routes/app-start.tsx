import { Navigate } from 'react-router';
import { messages } from '#shared/platform/messages';
import { lastDepartment } from '#web/features/records/device/device-hints';
import { isNetworkError } from '#web/platform/lib/api-client';
import { paths } from '#web/platform/paths';
import { useSession } from '#web/platform/session/get-session';
import { PageLoading } from '#web/platform/ui/page';

/**
 * Where the installed app opens (its manifest's start_url): the signed-in person's department; without
 * a connection, the last department opened on this phone; otherwise the login page.
 */
export default function AppStart() {
  const session = useSession();
  if (session.isPending) return <PageLoading label={messages.loading.session} />;
  const home = session.data?.user ? session.data.home : null;
  if (home) return <Navigate to={home} replace />;
  const last = lastDepartment();
  if (session.data === undefined && isNetworkError(session.error) && last) {
    return <Navigate to={paths.validation(last)} replace />;
  }
  return <Navigate to={`${paths.login}?next=${encodeURIComponent(paths.appStart)}`} replace />;
}
