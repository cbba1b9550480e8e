import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { photosMessages } from '#shared/features/records/photos';
import { type ProcedureRecord, recordsMessages } from '#shared/features/records/records';
import type { PhotoKind } from '#shared/platform/constants';
import { messages } from '#shared/platform/messages';
import { ApiError } from '#web/platform/lib/api-client';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { ConfirmationScreen } from '#web/platform/ui/confirmation-screen';
import { LoadingCover } from '#web/platform/ui/loading-cover';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { useCandidates } from '../api/get-candidates';
import { useRecords } from '../api/get-records';
import { useRecordsSummary } from '../api/get-records-summary';
import { useUploadPhoto } from '../api/upload-photo';
import { useVoteRecord } from '../api/vote-record';
import { RecordList } from './record-list';
import { ValidationProgress } from './validation-progress';
import { VoteDialog } from './vote-dialog';

export interface ValidationPageProps {
  slug: string;
  /** The spec's title: the slug with hyphens as spaces, in uppercase. */
  title: string;
  /** Admins may replace a filled photo (the old one stays as evidence). */
  canReplacePhotos?: boolean;
}

const ALLOWED_EXTENSIONS = /\.(jpe?g|heic)$/i;
const SEARCH_DELAY_MS = 300;

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * The validator's screen for one municipality or parish: progress, search, the pending records with
 * their vote and three ballot photos, and the completion screen once every record is validated.
 */
export function ValidationPage({ slug, title, canReplacePhotos = false }: ValidationPageProps) {
  useDocumentTitle(title);
  const searchId = useId();
  const summary = useRecordsSummary(slug);
  const candidates = useCandidates();
  const [search, setSearch] = useState('');
  const q = useDebounced(search, SEARCH_DELAY_MS);
  const [showValidated, setShowValidated] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const filters = useMemo(() => ({ q, validated: showValidated || reviewing }), [q, showValidated, reviewing]);
  const records = useRecords(slug, filters);
  const { fetchNextPage } = records;
  // A second call while a page is on its way must not cancel and repeat it.
  const fetchMore = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  const vote = useVoteRecord(slug);
  const upload = useUploadPhoto(slug);

  const [voting, setVoting] = useState<ProcedureRecord | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  const busy = vote.isPending || uploadProgress !== null;

  const openVote = useCallback((record: ProcedureRecord) => {
    setSelected([]);
    setVoting(record);
  }, []);

  const closeVote = () => {
    setSelected([]);
    setVoting(null);
  };

  const submitVote = () => {
    if (!voting) return;
    vote.mutate(
      { recordId: voting.id, candidates: selected },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          closeVote();
        },
        onError: (error) => {
          toast.error(error.message);
          // Already voted by someone else, or gone: nothing left to do in this dialog.
          if (error instanceof ApiError && (error.status === 409 || error.status === 404)) closeVote();
        },
      },
    );
  };

  const { mutate: uploadMutate } = upload;
  const startUpload = useCallback(
    (record: ProcedureRecord, kind: PhotoKind, file: File) => {
      if (!ALLOWED_EXTENSIONS.test(file.name) && !/^image\/(jpeg|heic|heif)$/.test(file.type)) {
        toast.error(photosMessages.badFormat);
        return;
      }
      setUploadProgress(0);
      uploadMutate(
        { recordId: record.id, kind, file, onProgress: setUploadProgress },
        {
          onSuccess: (result) => {
            toast.success(result.message);
            if (result.warning) toast.warning(result.warning);
          },
          onError: (error) => {
            console.error('upload failed', error);
            toast.error(error.message);
          },
          onSettled: () => setUploadProgress(null),
        },
      );
    },
    [uploadMutate],
  );

  // Photos take seconds on a phone network: the spec's cover, with the upload's progress. A vote is one
  // small request; its dialog stays, with its buttons disabled, until the answer.
  const cover =
    uploadProgress !== null ? <LoadingCover title={messages.loading.validating} progress={uploadProgress} /> : null;

  if (summary.isPending) {
    return (
      <Page wide>
        <h1 className="text-3xl font-black tracking-tight text-brand">{title}</h1>
        <Spinner label="Cargando trámites…" />
      </Page>
    );
  }
  if (summary.isError) {
    return (
      <Page wide>
        <h1 className="text-3xl font-black tracking-tight text-brand">{title}</h1>
        <div className="mt-4">
          <ErrorNotice message={summary.error.message} onRetry={() => summary.refetch()} />
        </div>
      </Page>
    );
  }

  const { total, validated } = summary.data;
  if (total > 0 && validated >= total && !reviewing) {
    return (
      <Page wide>
        {cover}
        <p className="text-center text-sm font-bold tracking-widest text-stone-700 uppercase">{title}</p>
        <ConfirmationScreen messageHtml={recordsMessages.completed} />
        <div className="flex justify-center">
          <button
            type="button"
            onClick={() => setReviewing(true)}
            className="font-semibold text-brand underline underline-offset-4 hover:text-brand-dark focus-visible:outline-2 focus-visible:outline-brand"
          >
            Revisar los trámites validados
          </button>
        </div>
      </Page>
    );
  }

  const list = records.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Page wide>
      {cover}
      <h1 className="text-3xl font-black tracking-tight text-brand">{title}</h1>
      {total === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-700">
          {recordsMessages.noRecords}
        </p>
      ) : (
        <>
          <div className="mt-4 flex flex-col gap-3">
            <ValidationProgress summary={summary.data} />
            <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <div className="flex-1">
                <label htmlFor={searchId} className="mb-1 block font-semibold text-stone-800">
                  Buscar
                </label>
                <input
                  id={searchId}
                  type="search"
                  value={search}
                  onChange={(event) => setSearch(event.target.value)}
                  placeholder="Nombre, teléfono, comunidad o UBCH"
                  autoComplete="off"
                  className="w-full rounded-lg border-2 border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 placeholder:text-stone-500 focus:border-brand focus:outline-none"
                />
              </div>
              <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border-2 border-stone-300 bg-white px-3 py-2 font-semibold text-stone-800 has-checked:border-brand">
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={showValidated || reviewing}
                  checked={showValidated || reviewing}
                  onChange={(event) => {
                    setShowValidated(event.target.checked);
                    if (!event.target.checked) setReviewing(false);
                  }}
                  className="h-5 w-5 accent-brand"
                />
                Mostrar validados
              </label>
            </div>
          </div>
          <div className="mt-4">
            {records.isPending ? (
              <Spinner label="Cargando trámites…" />
            ) : records.isError ? (
              <ErrorNotice message={records.error.message} onRetry={() => records.refetch()} />
            ) : list.length === 0 ? (
              <p className="rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-700">
                {q.trim() ? recordsMessages.noMatches : recordsMessages.noRecords}
              </p>
            ) : (
              <RecordList
                records={list}
                hasNextPage={records.hasNextPage}
                isFetchingNextPage={records.isFetchingNextPage}
                fetchNextPage={fetchMore}
                onVote={openVote}
                onUpload={startUpload}
                canReplacePhotos={canReplacePhotos}
                busy={busy}
              />
            )}
          </div>
        </>
      )}
      <VoteDialog
        record={voting}
        candidates={candidates.data?.items ?? []}
        selected={selected}
        onToggle={(code) =>
          setSelected((current) => (current.includes(code) ? current.filter((c) => c !== code) : [...current, code]))
        }
        onVote={submitVote}
        onCancel={closeVote}
        submitting={vote.isPending}
      />
    </Page>
  );
}
