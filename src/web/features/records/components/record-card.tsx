import { memo, type ReactNode } from 'react';
import { PHOTO_ACCEPT } from '#shared/features/records/photos';
import { PHOTO_KIND_LABELS, type PhotoSlot, type ProcedureRecord } from '#shared/features/records/records';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';

export interface RecordCardProps {
  record: ProcedureRecord;
  onVote: (record: ProcedureRecord) => void;
  onUpload: (record: ProcedureRecord, kind: PhotoKind, file: File) => void;
  /** Admins may replace a filled photo; validators fill each slot once. */
  canReplacePhotos?: boolean;
  /** While another vote or upload is on its way. */
  busy: boolean;
}

function CameraIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M3 8a2 2 0 012-2h2l1.5-2h7L17 6h2a2 2 0 012 2v10a2 2 0 01-2 2H5a2 2 0 01-2-2V8z"
      />
      <circle cx="12" cy="13" r="3.5" />
    </svg>
  );
}

function CheckIcon({ className = 'h-4 w-4' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="3" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d="M5 13l4 4L19 7" />
    </svg>
  );
}

const slotBox =
  'flex min-h-16 flex-col items-center justify-center gap-1 rounded-lg border-2 px-1 py-1.5 text-sm font-semibold';

/** A file picker dressed as its label: the whole box is the target, the input stays for screen readers. */
function FilePicker({
  label,
  busy,
  className,
  onFile,
  children,
}: {
  label: string;
  busy: boolean;
  className: string;
  onFile: (file: File) => void;
  children: ReactNode;
}) {
  return (
    <label className={`${className} ${busy ? 'pointer-events-none cursor-wait border-stone-300 bg-stone-100' : ''}`}>
      <input
        type="file"
        accept={PHOTO_ACCEPT}
        className="sr-only"
        disabled={busy}
        aria-label={label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so choosing the same file again after a failure fires a change.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      {children}
    </label>
  );
}

function PhotoButton({
  record,
  kind,
  slot,
  busy,
  canReplace,
  onUpload,
}: {
  record: ProcedureRecord;
  kind: PhotoKind;
  slot: PhotoSlot | null;
  busy: boolean;
  canReplace: boolean;
  onUpload: RecordCardProps['onUpload'];
}) {
  const label = PHOTO_KIND_LABELS[kind];
  if (slot) {
    // Filled: the thumbnail opens the photo; only an admin may put another one in its place.
    const view = (
      <a
        href={slot.url}
        target="_blank"
        rel="noopener"
        className={`${slotBox} border-emerald-600 bg-emerald-50 text-emerald-900 hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand`}
        aria-label={`Ver foto ${label} de ${record.nombre}`}
      >
        <span className="relative">
          <img
            src={slot.thumbUrl}
            alt=""
            width={48}
            height={36}
            loading="lazy"
            className="h-9 w-12 rounded object-cover"
          />
          <span className="absolute -top-1.5 -right-2 rounded-full bg-emerald-700 p-0.5 text-white">
            <CheckIcon className="h-3 w-3" />
          </span>
        </span>
        <span>{label}</span>
      </a>
    );
    if (!canReplace) return view;
    return (
      <div className="flex flex-col gap-1">
        {view}
        <FilePicker
          label={`Reemplazar foto ${label} de ${record.nombre}`}
          busy={busy}
          className="cursor-pointer rounded-md px-1 py-1 text-center text-xs font-semibold text-brand underline underline-offset-2 focus-within:outline-2 focus-within:outline-brand hover:text-brand-dark"
          onFile={(file) => onUpload(record, kind, file)}
        >
          Reemplazar
        </FilePicker>
      </div>
    );
  }
  return (
    <FilePicker
      label={`Subir foto ${label} de ${record.nombre}`}
      busy={busy}
      className={`${slotBox} cursor-pointer border-dashed border-stone-400 bg-white text-stone-800 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand hover:border-brand hover:text-brand`}
      onFile={(file) => onUpload(record, kind, file)}
    >
      <CameraIcon />
      <span>{label}</span>
    </FilePicker>
  );
}

/** One procedure record: who (community, UBCH, name, phone), the vote and the three ballot photos. */
export const RecordCard = memo(function RecordCard({
  record,
  onVote,
  onUpload,
  canReplacePhotos = false,
  busy,
}: RecordCardProps) {
  const voted = record.votedAt !== null;
  return (
    <article
      className={`rounded-xl border bg-white p-4 shadow-sm lg:flex lg:items-center lg:gap-6 ${
        record.validated ? 'border-emerald-300' : 'border-stone-200'
      }`}
      aria-label={record.nombre}
    >
      <div className="min-w-0 lg:flex-1">
        <p className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
          <span>{record.comunidad}</span>
          <span aria-hidden="true"> · </span>
          <span>{record.ubch}</span>
        </p>
        <h2 className="mt-0.5 text-lg leading-snug font-bold break-words text-stone-900">{record.nombre}</h2>
        <p className="mt-0.5">
          <a
            href={`tel:${record.telefono.replace(/[^\d+]/g, '')}`}
            className="font-medium text-stone-800 tabular-nums underline decoration-stone-300 underline-offset-4 hover:text-brand"
          >
            {record.telefono}
          </a>
        </p>
        {record.validated && (
          <p className="mt-1 inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-semibold text-emerald-900">
            <CheckIcon /> Validado
          </p>
        )}
      </div>
      <div className="mt-3 grid grid-cols-3 gap-2 lg:mt-0 lg:w-[27rem] lg:grid-cols-4">
        <div className="col-span-3 lg:col-span-1">
          <button
            type="button"
            onClick={() => onVote(record)}
            disabled={voted || busy}
            // Dimmed by colour, not by opacity: the text keeps at least 4.5:1 in sunlight.
            className={`flex min-h-12 w-full flex-col items-center justify-center rounded-lg px-3 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand lg:min-h-16 ${
              voted
                ? 'cursor-not-allowed border-2 border-dashed border-stone-400 bg-stone-100 text-stone-800'
                : 'bg-brand text-white hover:bg-brand-dark disabled:cursor-wait disabled:bg-stone-300 disabled:text-stone-900'
            }`}
            aria-label={voted ? `${record.nombre}: votado` : `Votar: ${record.nombre}`}
            data-testid="vote-button"
          >
            <span>{voted ? 'Votado' : 'Votar'}</span>
            {voted && (
              <span className="text-xs font-medium">
                {record.votes.length ? record.votes.join(', ') : 'Ningún candidato'}
                {record.voteCorrected ? ' · corregido' : ''}
              </span>
            )}
          </button>
        </div>
        {PHOTO_KINDS.map((kind) => (
          <PhotoButton
            key={kind}
            record={record}
            kind={kind}
            slot={record.photos[kind]}
            busy={busy}
            canReplace={canReplacePhotos}
            onUpload={onUpload}
          />
        ))}
      </div>
    </article>
  );
});
