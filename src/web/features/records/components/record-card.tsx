import { memo, type ReactNode, useEffect, useState } from 'react';
import { PHOTO_ACCEPT } from '#shared/features/photos/photos';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import {
  PHOTO_KIND_LABELS,
  type PhotoRetake,
  type PhotoSlot,
  type ProcedureRecord,
  retakeLabel,
} from '#shared/platform/records';
import type { OutboxItem, PhotoItem, VoteItem } from '../outbox/outbox-item';
import { itemLabel, itemStateClass, sizeSaved, stateLabel, voteChoice } from '../outbox/outbox-labels';
import { useRecordOutbox } from '../outbox/use-outbox';

export interface RecordCardProps {
  slug: string;
  record: ProcedureRecord;
  onVote: (record: ProcedureRecord) => void;
  onUpload: (record: ProcedureRecord, kind: PhotoKind, file: File) => void;
  /** Admins may replace a filled photo; validators fill each slot once. */
  canReplacePhotos?: boolean;
  /** Whose items on the phone the card shows (the person using it); another person's stay hidden. */
  viewer?: string | null;
  /**
   * The day has closed: no 'Votar', no empty photo slot and no 'Reemplazar'. What the server has and what
   * the phone holds from before the close stay shown (the latter may still arrive late).
   */
  closed?: boolean;
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
  className,
  onFile,
  disabled = false,
  children,
}: {
  label: string;
  className: string;
  onFile: (file: File) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <label
      className={`${className} ${disabled ? 'pointer-events-none cursor-wait border-stone-300 bg-stone-100' : ''}`}
    >
      <input
        type="file"
        accept={PHOTO_ACCEPT}
        className="sr-only"
        aria-label={label}
        disabled={disabled}
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

/** The photo waiting on the phone, shown from its own bytes while the server does not have it. */
function LocalThumbnail({ item }: { item: PhotoItem }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const data = item.file.data;
    // HEIC cannot be drawn by most browsers: the camera icon stands in for it.
    if (!data || !/jpe?g/i.test(item.file.type + item.file.name)) return;
    const objectUrl = URL.createObjectURL(new Blob([data], { type: 'image/jpeg' }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [item.file]);
  return url ? (
    <img src={url} alt="" width={48} height={36} className="h-9 w-12 rounded object-cover" />
  ) : (
    <CameraIcon />
  );
}

function PhotoButton({
  record,
  kind,
  slot,
  waiting,
  canReplace,
  onUpload,
  closed,
  retake,
}: {
  record: ProcedureRecord;
  kind: PhotoKind;
  slot: PhotoSlot | null;
  /** A reviewer found the photo sent before unreadable or wrong: the slot asks for another. */
  retake?: PhotoRetake | undefined;
  /** This slot's photo on the phone, not refused (saved, sending or sent). */
  waiting: PhotoItem | undefined;
  canReplace: boolean;
  onUpload: RecordCardProps['onUpload'];
  closed: boolean;
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
    if (!canReplace || closed) return view;
    return (
      <div className="flex flex-col gap-1">
        {view}
        <FilePicker
          label={`Reemplazar foto ${label} de ${record.nombre}`}
          disabled={waiting !== undefined && waiting.state !== 'sent'}
          className="cursor-pointer rounded-md px-1 py-1 text-center text-xs font-semibold text-brand underline underline-offset-2 focus-within:outline-2 focus-within:outline-brand hover:text-brand-dark"
          onFile={(file) => onUpload(record, kind, file)}
        >
          Reemplazar
        </FilePicker>
      </div>
    );
  }
  if (waiting) {
    // Taken and kept on the phone: no second photo for the slot; its state is said below.
    return (
      <div
        className={`${slotBox} border-amber-600 bg-amber-50 text-amber-950`}
        role="img"
        aria-label={`Foto ${label} de ${record.nombre}: ${stateLabel(waiting, undefined)}`}
      >
        <LocalThumbnail item={waiting} />
        <span>{label}</span>
      </div>
    );
  }
  if (closed) {
    return (
      <div
        className={`${slotBox} border-dashed border-stone-300 bg-stone-50 text-stone-700`}
        data-testid="foto-cerrada"
      >
        <span>{label}</span>
        <span className="text-xs font-medium">Sin foto</span>
      </div>
    );
  }
  if (retake) {
    return (
      <div className="flex flex-col gap-1" data-testid="repetir-foto">
        <FilePicker
          label={`${retakeLabel(retake)}. Subir otra foto ${label} de ${record.nombre}`}
          className={`${slotBox} cursor-pointer border-red-700 bg-red-50 text-red-900 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand hover:bg-red-100`}
          onFile={(file) => onUpload(record, kind, file)}
        >
          <CameraIcon />
          <span>{label}</span>
        </FilePicker>
        <p className="max-w-36 text-xs text-red-900">
          <strong className="font-semibold">{retakeLabel(retake)}</strong>
          {retake.note ? <span className="block">{retake.note}</span> : null}
        </p>
      </div>
    );
  }
  return (
    <FilePicker
      label={`Subir foto ${label} de ${record.nombre}`}
      className={`${slotBox} cursor-pointer border-dashed border-stone-400 bg-white text-stone-800 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand hover:border-brand hover:text-brand`}
      onFile={(file) => onUpload(record, kind, file)}
    >
      <CameraIcon />
      <span>{label}</span>
    </FilePicker>
  );
}

/** '3,8 MB -> 610 kB' under a right-sized photo. */
function SizeSaved({ item }: { item: OutboxItem }) {
  const saved = sizeSaved(item);
  if (!saved) return null;
  return (
    <span className="text-stone-700 tabular-nums" data-testid="foto-reducida">
      <span aria-hidden="true">{saved.shown}</span>
      <span className="sr-only">{saved.spoken}</span>
    </span>
  );
}

/** Each item of the record kept on the phone, with its state: the place where a validator looks. */
function OutboxStatus({ items, progress }: { items: OutboxItem[]; progress: number | undefined }) {
  if (items.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-col gap-1.5 text-sm lg:mt-0 lg:w-72" aria-label="Envíos de este trámite">
      {items.map((item) => (
        <li key={item.seq} className="flex flex-col">
          <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <span className="font-semibold text-stone-800">
              {itemLabel(item)}
              {item.kind === 'vote' ? ` (${voteChoice(item.candidates)})` : ''}
            </span>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${itemStateClass(item)}`}
              data-testid="envio-estado"
            >
              {stateLabel(item, item.state === 'sending' ? progress : undefined)}
            </span>
          </span>
          <SizeSaved item={item} />
          {item.state === 'rejected' && item.rejection && (
            <span className="text-red-800">{item.rejection.message}</span>
          )}
          {item.kind === 'photo' && item.state === 'sent' && item.warning && (
            <span className="text-amber-900">{item.warning}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Who of the team voted the record and who validated it, as the server has them. */
function WhoMarkedIt({ record }: { record: ProcedureRecord }) {
  // A copy kept on the phone from before the server said who may lack these fields.
  if (!record.votedBy && !record.validatedBy) return null;
  return (
    <dl className="mt-1 text-sm text-stone-700" data-testid="quien-marco">
      {record.votedBy && (
        <div className="flex flex-wrap gap-x-1">
          <dt>Votado por</dt>
          <dd className="min-w-0 font-medium break-all text-stone-900">{record.votedBy}</dd>
        </div>
      )}
      {record.validatedBy && (
        <div className="flex flex-wrap gap-x-1">
          <dt>Validado por</dt>
          <dd className="min-w-0 font-medium break-all text-stone-900">{record.validatedBy}</dd>
        </div>
      )}
    </dl>
  );
}

const latest = <T extends OutboxItem>(items: OutboxItem[], match: (i: OutboxItem) => i is T): T | undefined =>
  items.filter(match).at(-1);

/**
 * One procedure record: who (community, UBCH, name, phone), the vote and the three ballot photos, who
 * of the team voted and validated it, and what of it waits on the phone or is on its way.
 */
export const RecordCard = memo(function RecordCard({
  slug,
  record,
  onVote,
  onUpload,
  canReplacePhotos = false,
  viewer = null,
  closed = false,
}: RecordCardProps) {
  const { items, progress } = useRecordOutbox(slug, record.id, viewer);
  const voteItem = latest(items, (i): i is VoteItem => i.kind === 'vote' && i.state !== 'rejected');
  const voted = record.votedAt !== null || voteItem !== undefined;
  const shownVotes = record.votedAt !== null ? record.votes : (voteItem?.candidates ?? []);
  return (
    <article
      className={`rounded-xl border bg-white p-4 shadow-sm lg:flex lg:flex-wrap lg:items-center lg:gap-x-6 ${
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
        {/* No phone after 'Borrar datos personales': no empty line, no empty call link. */}
        {record.telefono.trim() !== '' && (
          <p className="mt-0.5">
            <a
              href={`tel:${record.telefono.replace(/[^\d+]/g, '')}`}
              className="font-medium text-stone-800 tabular-nums underline decoration-stone-300 underline-offset-4 hover:text-brand"
            >
              {record.telefono}
            </a>
          </p>
        )}
        {record.code && (
          <p className="mt-0.5 text-sm text-stone-700" data-testid="codigo-sms">
            Código SMS <span className="font-mono font-bold tracking-widest text-stone-900">{record.code}</span>
          </p>
        )}
        <WhoMarkedIt record={record} />
        {record.validated && (
          <p className="mt-1 inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-semibold text-emerald-900">
            <CheckIcon /> Validado
          </p>
        )}
      </div>
      <div className="mt-3 grid grid-cols-3 gap-2 lg:mt-0 lg:w-[27rem] lg:grid-cols-4">
        <div className="col-span-3 lg:col-span-1">
          {closed && !voted ? (
            <div
              className="flex min-h-12 w-full flex-col items-center justify-center rounded-lg border-2 border-dashed border-stone-300 bg-stone-50 px-1 py-2 font-semibold whitespace-nowrap text-stone-800 lg:min-h-16"
              data-testid="voto-cerrado"
            >
              <span>Sin voto</span>
              {/* On wide screens the column is narrow, and the page's band already says it. */}
              <span className="text-xs font-medium lg:hidden">Jornada cerrada</span>
            </div>
          ) : (
            <button
              type="button"
              onClick={() => onVote(record)}
              disabled={voted}
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
                  {voteChoice(shownVotes)}
                  {record.voteCorrected ? ' · corregido' : ''}
                </span>
              )}
            </button>
          )}
        </div>
        {PHOTO_KINDS.map((kind) => (
          <PhotoButton
            key={kind}
            record={record}
            kind={kind}
            slot={record.photos[kind]}
            waiting={latest(
              items,
              (i): i is PhotoItem =>
                i.kind === 'photo' &&
                i.photoKind === kind &&
                i.state !== 'rejected' &&
                // A reviewer sent the slot back: the photo sent before is not waiting, another is asked for.
                !(record.retakes?.[kind] && i.state === 'sent'),
            )}
            retake={record.retakes?.[kind]}
            canReplace={canReplacePhotos}
            onUpload={onUpload}
            closed={closed}
          />
        ))}
      </div>
      <OutboxStatus items={items} progress={progress} />
    </article>
  );
});
