import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { RequireAccess } from '#web/features/auth/components/require-access';
import { DayBanner, useElectionDay } from '#web/features/election/components/day-status';
import { preparePhoto } from '#web/features/photos/prepare-photo';
import { ValidationPage } from '#web/features/records/components/validation-page';
import { paths } from '#web/platform/paths';
import { SESSION_QUERY_KEY, useSession } from '#web/platform/session/get-session';
import { NotFoundScreen } from './not-found';

/** The spec's title: the slug with hyphens as spaces, in uppercase. */
export const validationTitle = (slug: string) => slug.replace(/-/g, ' ').toUpperCase();

export default function ValidationRoute() {
  const { slug = '' } = useParams();
  const session = useSession();
  // The day's status (GET /api/election, with its close counted down): after the close nothing new is offered.
  const day = useElectionDay({ enabled: Boolean(session.data?.user), everySecond: false });
  const queryClient = useQueryClient();
  // A vote or photo answered 401: asking for the session again sends the person to /login and back here.
  const onSessionEnded = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
    [queryClient],
  );
  return (
    <RequireAccess path={paths.validation(slug)} notFound={<NotFoundScreen />} offline>
      <ValidationPage
        slug={slug}
        title={validationTitle(slug)}
        // The server decides; this only offers admins the button for what it allows them.
        canReplacePhotos={session.data?.user?.role === 'admin'}
        owner={session.data?.user?.email ?? null}
        onSessionEnded={onSessionEnded}
        preparePhoto={preparePhoto}
        closed={day.closedAt !== null}
        dayStatus={<DayBanner forValidators />}
      />
    </RequireAccess>
  );
}
