import { lazy, Suspense, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { type NotaAdmin, notaUpdateBodySchema } from '#shared/features/notas/notas.admin';
import { formatShortDate } from '#shared/platform/format';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { paths } from '#web/platform/paths';
import { badgeClass, buttonClass, cardClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { Spinner } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useCreateNota } from '../api/create-nota';
import { useDeleteNota } from '../api/delete-nota';
import { usePublishNota } from '../api/publish-nota';
import { useUnpublishNota } from '../api/unpublish-nota';
import { useUpdateNota } from '../api/update-nota';
import { previewHtml } from '../preview-html';

// The editor (TipTap and ProseMirror) is a chunk of its own, downloaded only when a nota is written.
const RichTextEditor = lazy(() => import('./rich-text-editor').then((m) => ({ default: m.RichTextEditor })));

export const NOTAS_ADMIN_PATH = `${paths.admin}/notas`;

/**
 * Writes a nota: title, content (rich text) and a preview of what the public page will show. A new nota
 * is saved as a draft or published at once; an existing one is saved, published or taken back to draft.
 * After every save the editor shows the HTML as the server stored it (sanitised).
 */
export function NotaEditor({ nota }: { nota: NotaAdmin | null }) {
  const navigate = useNavigate();
  const contentLabelId = useId();
  const contentErrorId = useId();
  const form = useDraftForm(
    notaUpdateBodySchema,
    () => ({ title: nota?.title ?? '', contentHtml: nota?.contentHtml ?? '' }),
    {
      // An editor left empty still holds markup (an empty paragraph): the nota needs text or an image.
      check: ({ contentHtml }, errors) => {
        if (errors.contentHtml) return {};
        const text = new DOMParser().parseFromString(contentHtml, 'text/html').body;
        return !text.textContent?.trim() && !text.querySelector('img')
          ? { contentHtml: 'Escribe el contenido de la nota.' }
          : {};
      },
    },
  );
  const { errors, set } = form;
  const { title, contentHtml: html } = form.draft;
  /** Bumped to load the server's (sanitised) HTML into the editor after a save. */
  const [version, setVersion] = useState(0);
  const [preview, setPreview] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const create = useCreateNota(showsOwnError);
  const update = useUpdateNota(showsOwnError);
  const publish = usePublishNota(showsOwnError);
  const unpublish = useUnpublishNota(showsOwnError);
  const remove = useDeleteNota(showsOwnError);
  const busy = create.isPending || update.isPending || publish.isPending || unpublish.isPending || remove.isPending;
  const published = nota?.status === 'publicada';

  const loaded = (saved: NotaAdmin) => {
    form.reset({ title: saved.title, contentHtml: saved.contentHtml });
    setVersion((v) => v + 1);
  };

  const fail = (error: Error) => form.showErrors({ form: error.message });

  // Checked with the shared schema first (form.submit); the server checks (and cleans) it again.
  const save = (andPublish: boolean) => form.submit((body) => send(body, andPublish))();
  // The promise the form waits for before it sends anything again: the save, and the publishing after it.
  const send = (body: { title: string; contentHtml: string }, andPublish: boolean): Promise<unknown> => {
    if (!nota) {
      return create.mutateAsync({ ...body, publish: andPublish }).then((result) => {
        toast.success(result.message);
        navigate(`${NOTAS_ADMIN_PATH}/${result.nota.id}`, { replace: true });
      }, fail);
    }
    return update.mutateAsync({ id: nota.id, ...body }).then((result) => {
      loaded(result.nota);
      if (andPublish && result.nota.status !== 'publicada') {
        return publish.mutateAsync(nota.id).then((published) => toast.success(published.message), fail);
      }
      toast.success(result.message);
    }, fail);
  };

  return (
    <section aria-labelledby="nota-editor-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="nota-editor-titulo" className="text-2xl font-bold text-stone-900">
            {nota ? 'Editar nota' : 'Nueva nota'}
          </h2>
          {nota && (
            <span className={published ? badgeClass.ok : badgeClass.neutral} data-testid="nota-estado">
              {published ? 'Publicada' : 'Borrador'}
            </span>
          )}
        </div>
        <Link
          to={NOTAS_ADMIN_PATH}
          className="font-semibold text-brand underline underline-offset-4 hover:text-brand-dark focus-visible:outline-2 focus-visible:outline-brand"
        >
          Volver a las notas
        </Link>
      </div>
      {nota?.publishedAt && (
        <p className="text-stone-700">
          Publicada el <time dateTime={nota.publishedAt}>{formatShortDate(nota.publishedAt)}</time>.
        </p>
      )}

      <form
        noValidate
        className={`${cardClass} flex flex-col gap-4`}
        onSubmit={(e) => {
          e.preventDefault();
          save(false);
        }}
      >
        <TextField
          label="Título"
          value={title}
          maxLength={200}
          error={errors.title}
          onChange={(e) => set('title', e.target.value)}
          autoComplete="off"
        />
        <div className="flex flex-col gap-1.5">
          <span id={contentLabelId} className="font-semibold text-stone-800">
            Contenido
          </span>
          <Suspense
            fallback={
              <div className="min-h-64 rounded-lg border-2 border-stone-300 bg-white">
                <Spinner label="Cargando el editor…" />
              </div>
            }
          >
            <RichTextEditor
              key={`${nota?.id ?? 'nueva'}-${version}`}
              labelId={contentLabelId}
              initialHtml={html}
              onChange={(value) => set('contentHtml', value)}
              invalid={Boolean(errors.contentHtml)}
              describedBy={errors.contentHtml ? contentErrorId : undefined}
            />
          </Suspense>
          {errors.contentHtml && (
            <p id={contentErrorId} className="text-sm font-semibold text-red-800">
              {errors.contentHtml}
            </p>
          )}
        </div>
        {errors.form && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
            {errors.form}
          </p>
        )}
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-end">
          <button
            type="button"
            className={buttonClass.secondary}
            aria-expanded={preview}
            aria-controls="nota-vista-previa"
            onClick={() => setPreview((v) => !v)}
          >
            {preview ? 'Ocultar vista previa' : 'Vista previa'}
          </button>
          {nota && (
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={busy}
              onClick={() => setConfirmDelete(true)}
            >
              Eliminar
            </button>
          )}
          {published && nota && (
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={busy}
              onClick={() =>
                unpublish.mutate(nota.id, { onSuccess: (result) => toast.success(result.message), onError: fail })
              }
            >
              Volver a borrador
            </button>
          )}
          <SubmitButton
            sending={form.sending}
            className={published ? buttonClass.primary : buttonClass.secondary}
            disabled={busy}
          >
            {nota ? 'Guardar cambios' : 'Guardar borrador'}
          </SubmitButton>
          {!published && (
            <SubmitButton type="button" sending={form.sending} disabled={busy} onClick={() => save(true)}>
              {nota ? 'Guardar y publicar' : 'Publicar'}
            </SubmitButton>
          )}
        </div>
      </form>

      <div id="nota-vista-previa" hidden={!preview} className={cardClass}>
        <p className="mb-2 text-sm font-semibold tracking-wide text-stone-600 uppercase">Vista previa</p>
        <h3 className="text-xl font-bold text-stone-900">{title || 'Sin título'}</h3>
        <div
          className="nota-content mt-2 text-stone-800"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by previewHtml; the server sanitises on save
          dangerouslySetInnerHTML={{ __html: preview ? previewHtml(html) : '' }}
        />
      </div>

      <ConfirmDialog
        open={confirmDelete}
        title="Eliminar nota"
        message={`¿Eliminar «${nota?.title ?? ''}»? ${published ? 'Deja de mostrarse en el sitio. ' : ''}No se puede deshacer.`}
        confirmLabel="Eliminar"
        danger
        pending={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          if (!nota) return;
          remove.mutate(nota.id, {
            onSuccess: (result) => {
              toast.success(result.message);
              navigate(NOTAS_ADMIN_PATH, { replace: true });
            },
            onError: (error) => {
              setConfirmDelete(false);
              fail(error);
            },
          });
        }}
      />
    </section>
  );
}
