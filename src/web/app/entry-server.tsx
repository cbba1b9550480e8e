// The public pages rendered on the server (`vite build --ssr`, into dist-ssr/): the same components and
// the same query cache contents the browser starts from, so hydration changes nothing on screen.
import { type ReactNode, StrictMode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { PublicPageRenderer } from '#shared/platform/public-pages';
import { DocumentTitleSink, documentTitle } from '#web/platform/lib/use-document-title';
import { createQueryClient } from '#web/platform/provider';
import { App } from './app';
import type { PublicPageData } from './public/page-data';
import { PublicTemplates } from './public/public-templates';
import { seedQueryCache } from './public-data';

export const render: PublicPageRenderer['render'] = (path, data) => {
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, data as PublicPageData);
  const site = (data as PublicPageData).site.campaignName || 'Comando';
  const title: { site: string; title?: string } = { site };
  const AtPath = ({ children }: { children: ReactNode }) => <StaticRouter location={path}>{children}</StaticRouter>;
  const html = renderToString(
    <StrictMode>
      <DocumentTitleSink value={title}>
        <App queryClient={queryClient} Router={AtPath} />
      </DocumentTitleSink>
    </StrictMode>,
  );
  queryClient.clear();
  // What the page's own script clones (the menu, the login icon, a nota): outside the app's root.
  const templates = renderToStaticMarkup(
    <AtPath>
      <PublicTemplates path={path} />
    </AtPath>,
  );
  return { html, title: title.title ?? documentTitle('', site), templates };
};
