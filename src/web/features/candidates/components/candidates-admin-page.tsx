import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { AdminCandidate } from '#shared/features/candidates/candidates';
import { PHOTO_ACCEPT } from '#shared/features/photos/photos';
import { formatCount } from '#shared/platform/format';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { buttonClass, cardClass } from '#web/platform/ui/back-office';
import { ConfirmDialog } from '#web/platform/ui/modal';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { answerInToast, useDialogOpening } from '#web/platform/ui/use-dialog-opening';
import { useDeleteCandidate } from '../api/delete-candidate';
import { useAdminCandidates } from '../api/get-candidates';
import { useUploadCandidatePhoto } from '../api/upload-candidate-photo';
import { CandidateDialog } from './candidate-dialog';

/** Candidates of the ballot: name, code, colour, photo and order. */
export default function CandidatesAdminPage() {
  useDocumentTitle('Candidatos · Administración');
  const candidates = useAdminCandidates();
  const [editing, setEditing] = useState<AdminCandidate | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminCandidate | null>(null);
  const remove = useDeleteCandidate();
  const deleteDialog = useDialogOpening(deleting !== null);

  if (candidates.isPending) return <Spinner />;
  if (candidates.isError)
    return <ErrorNotice message={candidates.error.message} onRetry={() => candidates.refetch()} />;
  const items = candidates.data.items;

  return (
    <section aria-labelledby="candidatos-titulo" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="candidatos-titulo" className="text-2xl font-bold text-stone-900">
          Candidatos
        </h2>
        <button
          type="button"
          className={buttonClass.primary}
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
        >
          Nuevo candidato
        </button>
      </div>
      <p className="text-stone-700">
        La boleta de validación y la página de resultados los muestran en este orden. Las fotos se aceptan en JPG, JPEG
        o HEIC y se publican para todos.
      </p>
      <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label="Candidatos">
        {items.map((c) => (
          <li key={c.id}>
            <CandidateCard
              candidate={c}
              onEdit={() => {
                setEditing(c);
                setDialogOpen(true);
              }}
              onDelete={() => setDeleting(c)}
            />
          </li>
        ))}
      </ul>
      <CandidateDialog
        open={dialogOpen}
        candidate={editing}
        count={items.length}
        onClose={() => setDialogOpen(false)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Borrar candidato"
        message={`${deleting?.code} · ${deleting?.name} dejará de aparecer en la boleta y en los resultados.`}
        confirmLabel="Borrar"
        danger
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          answerInToast(
            deleteDialog,
            remove.mutateAsync(deleting.id),
            () => `Candidato ${deleting.code} borrado`,
            () => setDeleting(null),
          );
        }}
      />
    </section>
  );
}

function CandidateCard({
  candidate: c,
  onEdit,
  onDelete,
}: {
  candidate: AdminCandidate;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const upload = useUploadCandidatePhoto();
  const [progress, setProgress] = useState<number | null>(null);
  const headingId = `candidato-${c.id}`;
  const inputId = `candidato-${c.id}-foto`;

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setProgress(0);
    upload.mutate(
      { id: c.id, file, onProgress: setProgress },
      {
        onSuccess: () => toast.success(`Foto de ${c.code} actualizada`),
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <article aria-labelledby={headingId} className={`${cardClass} flex h-full flex-col gap-3`}>
      <div className="flex items-center gap-4">
        <img
          src={c.photoUrl}
          alt={`Foto de ${c.name}`}
          width={80}
          height={80}
          className="h-20 w-20 shrink-0 rounded-full border-4 bg-stone-100 object-cover"
          style={{ borderColor: c.colour }}
        />
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg font-bold text-stone-900">
            {c.name}
          </h3>
          <p className="flex flex-wrap items-center gap-2 text-stone-700">
            <span className="font-black text-stone-900">{c.code}</span>
            <span className="inline-flex items-center gap-1.5 font-mono text-sm">
              <span
                className="h-4 w-4 rounded border border-stone-300"
                style={{ backgroundColor: c.colour }}
                aria-hidden="true"
              />
              {c.colour}
            </span>
          </p>
          <p className="text-sm text-stone-700">
            Lugar {c.position} · {formatCount(c.votes)} {c.votes === 1 ? 'voto' : 'votos'}
          </p>
        </div>
      </div>
      {progress !== null && (
        <div
          className="h-2 w-full overflow-hidden rounded-full bg-stone-200"
          role="progressbar"
          aria-label={`Subiendo la foto de ${c.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress)}
        >
          <div className="h-full bg-brand transition-[width]" style={{ width: `${progress}%` }} />
        </div>
      )}
      <div className="mt-auto flex flex-wrap gap-2">
        <button type="button" className={buttonClass.small} aria-label={`Editar: ${c.code}`} onClick={onEdit}>
          Editar
        </button>
        <label
          htmlFor={inputId}
          className={`${buttonClass.small} cursor-pointer focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand ${upload.isPending ? 'pointer-events-none bg-stone-100 text-stone-700' : ''}`}
        >
          Cambiar foto
          <input
            id={inputId}
            type="file"
            accept={PHOTO_ACCEPT}
            className="sr-only"
            aria-label={`Cambiar foto: ${c.code}`}
            disabled={upload.isPending}
            onChange={(e) => {
              onFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
        {c.votes === 0 && (
          <button type="button" className={buttonClass.small} aria-label={`Borrar: ${c.code}`} onClick={onDelete}>
            Borrar
          </button>
        )}
      </div>
    </article>
  );
}
