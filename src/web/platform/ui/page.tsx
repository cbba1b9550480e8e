import type { ReactNode } from 'react';

/** Page frame: one main landmark, readable width, phone-first padding. */
export function Page({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <main id="contenido" className={`mx-auto w-full ${wide ? 'max-w-6xl' : 'max-w-3xl'} px-4 pt-6 pb-16`}>
      {children}
    </main>
  );
}

export function Spinner({ label = 'Cargando…' }: { label?: string }) {
  return (
    <div className="flex items-center justify-center gap-3 py-10 text-stone-600" role="status">
      <div className="h-6 w-6 animate-spin rounded-full border-2 border-stone-300 border-t-brand" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/**
 * A page waiting for an answer from the network (who is signed in, its data): an inline status in the
 * page's place, never a cover, so the menu and the outbox stay usable however long the network takes.
 */
export function PageLoading({ label = 'Cargando…' }: { label?: string }) {
  return (
    <Page>
      <Spinner label={label} />
    </Page>
  );
}

export function ErrorNotice({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 font-semibold underline underline-offset-2">
          Reintentar
        </button>
      )}
    </div>
  );
}
