import { messages } from '#shared/platform/messages';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { useNotas } from '../api/get-notas';
import { NotaCard } from './nota-card';

export function NotasPage() {
  useDocumentTitle('Notas');
  const notas = useNotas();

  return (
    <Page>
      <h1 className="mb-6 text-3xl font-black tracking-tight text-brand">Notas</h1>
      {notas.isPending ? (
        <Spinner label="Cargando notas…" />
      ) : notas.isError ? (
        <ErrorNotice message={notas.error.message} onRetry={() => notas.refetch()} />
      ) : (
        <>
          {notas.data.pages[0]?.notice && (
            <p className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
              {notas.data.pages[0].notice}
            </p>
          )}
          {notas.data.pages[0]?.total === 0 ? (
            // With no copy yet, the notice above says so; "no notas" would not be true.
            notas.data.pages[0].state === 'loading' || notas.data.pages[0].state === 'unavailable' ? null : (
              <p className="rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-600">
                {messages.notas.empty}
              </p>
            )
          ) : (
            <div className="flex flex-col gap-4" data-notas-list="">
              {notas.data.pages
                .flatMap((p) => p.items)
                .map((nota) => (
                  <NotaCard key={nota.id} nota={nota} />
                ))}
            </div>
          )}
          {notas.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <button
                type="button"
                onClick={() => notas.fetchNextPage()}
                // Without the app, a public page's own script answers this button (app/public/more-notas.ts).
                data-action="more-notas"
                disabled={notas.isFetchingNextPage}
                className="rounded-lg border border-brand px-5 py-2 font-semibold text-brand hover:bg-brand hover:text-white disabled:border-stone-400 disabled:text-stone-700 focus-visible:outline-2 focus-visible:outline-brand"
              >
                {notas.isFetchingNextPage ? 'Cargando…' : 'Cargar más notas'}
              </button>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
