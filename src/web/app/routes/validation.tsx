import { useParams } from 'react-router';
import { Page } from '../../components/ui/page';
import { paths } from '../../config/paths';
import { RequireAccess } from '../../features/auth/components/require-access';
import { useDocumentTitle } from '../../lib/use-document-title';
import { NotFoundScreen } from './not-found';

/** The spec's title: the slug with hyphens as spaces, in uppercase. */
export const validationTitle = (slug: string) => slug.replace(/-/g, ' ').toUpperCase();

function ValidationShell({ slug }: { slug: string }) {
  const title = validationTitle(slug);
  useDocumentTitle(title);
  return (
    <Page wide>
      <h1 className="text-3xl font-black tracking-tight text-brand">{title}</h1>
    </Page>
  );
}

export default function ValidationRoute() {
  const { slug = '' } = useParams();
  return (
    <RequireAccess path={paths.validation(slug)} notFound={<NotFoundScreen />}>
      <ValidationShell slug={slug} />
    </RequireAccess>
  );
}
