import { Link } from 'react-router';
import { messages } from '#shared/platform/messages';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { Page } from '#web/platform/ui/page';

export function NotFoundScreen() {
  useDocumentTitle(messages.notFoundTitle);
  return (
    <Page>
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <p className="text-6xl font-black text-brand/80" aria-hidden="true">
          404
        </p>
        <h1 className="text-2xl font-bold">{messages.notFoundTitle}</h1>
        <p className="text-stone-600">La dirección que abriste no existe o no tienes acceso a ella.</p>
        <Link
          to={paths.home}
          className="rounded-lg bg-brand px-5 py-3 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
        >
          {messages.goHome}
        </Link>
      </div>
    </Page>
  );
}

export default NotFoundScreen;
