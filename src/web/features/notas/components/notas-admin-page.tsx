import { useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { type NotaAdminSummary, type NotasAdminFilter, notasAdminMessages } from '#shared/features/notas/notas.admin';
import { formatCount, formatShortDate } from '#shared/platform/format';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { badgeClass, buttonClass, cardClass, inputClass, labelClass } from '#web/platform/ui/back-office';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { answerInToast, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDeleteNota } from '../api/delete-nota';
import { useNotaAdmin } from '../api/get-nota-admin';
import { useNotasAdmin } from '../api/get-notas-admin';
import { usePublishNota } from '../api/publish-nota';
import { useUnpublishNota } from '../api/unpublish-nota';
import { NOTAS_ADMIN_PATH, NotaEditor } from './nota-editor';

const FILTERS: { value: NotasAdminFilter; label: string }[] = [
  { value: 'todas', label: 'Todas' },
  { value: 'borradores', label: 'Borradores' },
  { value: 'publicadas', label: 'Publicadas' },
];

/** The notas editor: the list (drafts included), a new nota, and one nota by id. */
export default function NotasAdminPage() {
  useDocumentTitle('Notas · Administración');
  return (
    <Routes>
      <Route index element={<NotasList />} />
      <Route path="nueva" element={<NewNota />} />
      <Route path=":id" element={<EditNota />} />
    </Routes>
  );
}

/** Shown instead of the editor when notas come from WordPress (the server refuses changes then). */
function WordpressNotice({ message }: { message: string }) {
  return (
    <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="font-semibold">Notas desde WordPress</p>
      <p className="mt-1">{message}</p>
    </div>
  );
}

function NotasList() {
  const [status, setStatus] = useState<NotasAdminFilter>('todas');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<NotaAdminSummary | null>(null);
  const notas = useNotasAdmin({ status, q, page });
  const publish = usePublishNota();
  const unpublish = useUnpublishNota();
  const remove = useDeleteNota();
  const deleteDialog = useDialogOpening(deleting !== null);
  const data = notas.data;
  const wordpress = data?.source === 'wordpress';

  return (
    <section aria-labelledby="notas-admin-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="notas-admin-titulo" className="text-2xl font-bold text-stone-900">
            Notas
          </h2>
          <p className="text-stone-700">Los borradores no se muestran en el sitio hasta que los publicas.</p>
        </div>
        {!wordpress && (
          <Link to={`${NOTAS_ADMIN_PATH}/nueva`} className={buttonClass.primary}>
            Nueva nota
          </Link>
        )}
      </div>

      {wordpress && data?.notice ? (
        <WordpressNotice message={data.notice} />
      ) : (
        <>
          <div className={`${cardClass} flex flex-col gap-3 sm:flex-row sm:items-end`}>
            <fieldset className="flex flex-col gap-1.5">
              <legend className={`${labelClass} mb-1.5`}>Mostrar</legend>
              <div className="flex flex-wrap gap-2">
                {FILTERS.map((f) => (
                  <label
                    key={f.value}
                    className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border-2 border-stone-300 bg-white px-3 font-semibold text-stone-800 has-checked:border-brand has-checked:bg-brand-light has-focus-visible:outline-2 has-focus-visible:outline-brand"
                  >
                    <input
                      type="radio"
                      name="estado-notas"
                      value={f.value}
                      checked={status === f.value}
                      onChange={() => {
                        setStatus(f.value);
                        setPage(1);
                      }}
                      className="h-4 w-4 accent-brand"
                    />
                    {f.label}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="flex flex-1 flex-col gap-1.5">
              <label htmlFor="notas-buscar" className={labelClass}>
                Buscar por título
              </label>
              <input
                id="notas-buscar"
                type="search"
                className={inputClass}
                value={q}
                maxLength={100}
                onChange={(e) => {
                  setQ(e.target.value);
                  setPage(1);
                }}
              />
            </div>
          </div>

          {notas.isPending ? (
            <Spinner label="Cargando las notas…" />
          ) : notas.isError ? (
            <ErrorNotice message={notas.error.message} onRetry={() => notas.refetch()} />
          ) : data && data.items.length === 0 ? (
            <p className="rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-600">
              {q || status !== 'todas' ? 'Ninguna nota coincide.' : 'Todavía no hay notas. Crea la primera.'}
            </p>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Notas">
              {data?.items.map((nota) => (
                <li key={nota.id}>
                  <NotaRow
                    nota={nota}
                    busy={publish.isPending || unpublish.isPending}
                    onPublish={() => publish.mutate(nota.id, { onSuccess: (r) => toast.success(r.message) })}
                    onUnpublish={() => unpublish.mutate(nota.id, { onSuccess: (r) => toast.success(r.message) })}
                    onDelete={() => setDeleting(nota)}
                  />
                </li>
              ))}
            </ul>
          )}

          {data && data.totalPages > 1 && (
            <nav aria-label="Páginas de notas" className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-stone-700">
                Página {formatCount(data.page)} de {formatCount(data.totalPages)} ({formatCount(data.total)} notas)
              </p>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={buttonClass.secondary}
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                >
                  Anterior
                </button>
                <button
                  type="button"
                  className={buttonClass.secondary}
                  disabled={page >= data.totalPages}
                  onClick={() => setPage(page + 1)}
                >
                  Siguiente
                </button>
              </div>
            </nav>
          )}
        </>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Eliminar nota"
        message={`¿Eliminar «${deleting?.title ?? ''}»? ${deleting?.status === 'publicada' ? 'Deja de mostrarse en el sitio. ' : ''}No se puede deshacer.`}
        confirmLabel="Eliminar"
        danger
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          answerInToast(
            deleteDialog,
            remove.mutateAsync(deleting.id),
            (r) => r.message,
            () => setDeleting(null),
          );
        }}
      />
    </section>
  );
}

function NotaRow({
  nota,
  busy,
  onPublish,
  onUnpublish,
  onDelete,
}: {
  nota: NotaAdminSummary;
  busy: boolean;
  onPublish: () => void;
  onUnpublish: () => void;
  onDelete: () => void;
}) {
  const published = nota.status === 'publicada';
  return (
    <article className={`${cardClass} flex flex-col gap-3`} aria-label={nota.title}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 text-lg font-bold break-words text-stone-900">{nota.title}</h3>
        <span className={published ? badgeClass.ok : badgeClass.neutral}>{published ? 'Publicada' : 'Borrador'}</span>
      </div>
      {nota.excerpt && <p className="line-clamp-2 text-stone-700">{nota.excerpt}</p>}
      <p className="text-sm text-stone-600">
        {published && nota.publishedAt ? (
          <>
            Publicada el <time dateTime={nota.publishedAt}>{formatShortDate(nota.publishedAt)}</time> ·{' '}
          </>
        ) : null}
        Cambiada el <time dateTime={nota.updatedAt}>{formatShortDate(nota.updatedAt)}</time>
      </p>
      <div className="flex flex-wrap gap-2">
        <Link to={`${NOTAS_ADMIN_PATH}/${nota.id}`} className={buttonClass.small} aria-label={`Editar: ${nota.title}`}>
          Editar
        </Link>
        {published ? (
          <button
            type="button"
            className={buttonClass.small}
            disabled={busy}
            onClick={onUnpublish}
            aria-label={`Volver a borrador: ${nota.title}`}
          >
            Volver a borrador
          </button>
        ) : (
          <button
            type="button"
            className={buttonClass.small}
            disabled={busy}
            onClick={onPublish}
            aria-label={`Publicar: ${nota.title}`}
          >
            Publicar
          </button>
        )}
        <button type="button" className={buttonClass.small} onClick={onDelete} aria-label={`Eliminar: ${nota.title}`}>
          Eliminar
        </button>
      </div>
    </article>
  );
}

function NewNota() {
  // The list says whether notas come from WordPress; a direct link to /nueva asks too.
  const list = useNotasAdmin({ status: 'todas', q: '', page: 1 });
  if (list.isPending) return <Spinner />;
  if (list.data?.source === 'wordpress' && list.data.notice) return <WordpressNotice message={list.data.notice} />;
  return <NotaEditor nota={null} />;
}

function EditNota() {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const nota = useNotaAdmin(id, valid);
  if (valid && nota.isPending) return <Spinner label="Cargando la nota…" />;
  if (!valid || nota.isError || !nota.data) {
    return (
      <div className="flex flex-col gap-3">
        <ErrorNotice message={nota.error?.message ?? notasAdminMessages.notaNotFound} />
        <Link to={NOTAS_ADMIN_PATH} className="font-semibold text-brand underline underline-offset-4">
          Volver a las notas
        </Link>
      </div>
    );
  }
  return <NotaEditor key={nota.data.id} nota={nota.data} />;
}
