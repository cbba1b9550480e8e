import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { photosMessages } from '#shared/features/photos/photos';
import { recordsMessages } from '#shared/features/records/records';
import type { PhotoKind } from '#shared/platform/constants';
import { messages } from '#shared/platform/messages';
import type { ProcedureRecord } from '#shared/platform/records';
import { useDebouncedValue } from '#web/platform/lib/use-debounced-value';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { useOnline } from '#web/platform/lib/use-online';
import { paths } from '#web/platform/paths';
import { ConfirmationScreen } from '#web/platform/ui/confirmation-screen';
import { LoadingCover } from '#web/platform/ui/loading-cover';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { useCandidates } from '../api/get-candidates';
import { usePhotoSettings } from '../api/get-photo-settings';
import { useRecords } from '../api/get-records';
import { useRecordsSummary } from '../api/get-records-summary';
import { rememberDepartment, rememberedOwner, rememberOwner } from '../device/device-hints';
import { deviceOutbox } from '../outbox/device-outbox';
import type { OutboxFile } from '../outbox/outbox-item';
import { useOutboxConnection } from '../outbox/use-outbox';
import { OfflineBanner } from './offline-banner';
import { RecordList } from './record-list';
import { ValidationProgress } from './validation-progress';
import { VoteDialog } from './vote-dialog';

export interface ValidationPageProps {
  slug: string;
  /** The spec's title: the slug with hyphens as spaces, in uppercase. */
  title: string;
  /** Admins may replace a filled photo (the old one stays as evidence). */
  canReplacePhotos?: boolean;
  /**
   * The signed-in person; null while the session cannot be asked (no connection): the page then shows
   * the phone's copy, and what is done is kept for the last person signed in here.
   */
  owner: string | null;
  /** A request was answered 401: the app asks for the session again (and so shows /login). */
  onSessionEnded?: () => void;
  /** Gets a picked photo ready to wait on the phone (the photos feature: checked, right-sized or not). */
  preparePhoto: PreparePhoto;
  /**
   * The day has closed: no 'Votar' and no empty photo slot; what the phone already holds stays shown
   * (it may still arrive late).
   */
  closed?: boolean;
  /** The day's phase and countdown, under the title (the election feature's, composed by the route). */
  dayStatus?: ReactNode;
}

/** A picked photo, checked and made ready to be kept on the phone, or why it cannot be sent. */
export type PreparePhoto = (
  file: File,
  options: { rightSize: boolean },
) => Promise<{ file: OutboxFile } | { error: string }>;

const SEARCH_DELAY_MS = 300;
/** While the list shown is the phone's copy, the server is asked again this often. */
const COPY_RETRY_MS = 30_000;

/**
 * The validator's screen for one municipality or parish: progress, search, the pending records with
 * their vote and three ballot photos, and the completion screen once every record is validated. Votes
 * and photos are saved on the phone first and sent in the background (docs/decisions/024-026): nothing
 * here waits for the network, and without a connection the page shows the list the phone kept.
 */
export function ValidationPage({
  slug,
  title,
  canReplacePhotos = false,
  owner,
  onSessionEnded,
  preparePhoto,
  closed = false,
  dayStatus,
}: ValidationPageProps) {
  useDocumentTitle(title);
  useOutboxConnection({ owner, onSessionEnded });
  useEffect(() => {
    if (owner) rememberOwner(owner);
    rememberDepartment(slug);
  }, [owner, slug]);
  const online = useOnline();
  const searchId = useId();
  const summary = useRecordsSummary(slug);
  const candidates = useCandidates();
  // Right-sized JPEGs unless the admins chose originals (also while the setting is not known yet).
  const sendOriginals = usePhotoSettings().data?.sendOriginals ?? false;
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [showValidated, setShowValidated] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const filters = useMemo(() => ({ q, validated: showValidated || reviewing }), [q, showValidated, reviewing]);
  const records = useRecords(slug, filters);
  const { fetchNextPage } = records;
  // A second call while a page is on its way must not cancel and repeat it.
  const fetchMore = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  const [voting, setVoting] = useState<ProcedureRecord | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [savingVote, setSavingVote] = useState(false);
  // Set in the same tick as the tap: a second tap before React re-renders finds it set.
  const savingVoteNow = useRef(false);
  const [preparingPhoto, setPreparingPhoto] = useState(false);

  const openVote = useCallback((record: ProcedureRecord) => {
    setSelected([]);
    setVoting(record);
  }, []);

  const closeVote = () => {
    setSelected([]);
    setVoting(null);
  };

  // The close came while the dialog was open: nothing new is taken now.
  useEffect(() => {
    if (closed) {
      setSelected([]);
      setVoting(null);
    }
  }, [closed]);

  /** Whose what is done here is: the session's person, or offline the last one signed in on this phone. */
  const person = owner ?? rememberedOwner();

  const submitVote = async () => {
    if (!voting || savingVoteNow.current || !person || closed) return;
    savingVoteNow.current = true;
    setSavingVote(true);
    try {
      await deviceOutbox().addVote({
        owner: person,
        slug,
        recordId: voting.id,
        recordName: voting.nombre,
        candidates: selected,
      });
      closeVote();
    } catch (error) {
      console.error('vote not saved', error);
      toast.error(recordsMessages.voteNotSaved);
    } finally {
      savingVoteNow.current = false;
      setSavingVote(false);
    }
  };

  const startUpload = useCallback(
    async (record: ProcedureRecord, kind: PhotoKind, file: File) => {
      if (!person || closed) return;
      // The cover only while the photo is read and saved on the phone (seconds), never while it travels.
      setPreparingPhoto(true);
      try {
        const prepared = await preparePhoto(file, { rightSize: !sendOriginals });
        if ('error' in prepared) {
          toast.error(prepared.error);
          return;
        }
        await deviceOutbox().addPhoto({
          owner: person,
          slug,
          recordId: record.id,
          recordName: record.nombre,
          photoKind: kind,
          file: prepared.file,
        });
      } catch (error) {
        console.error('photo not saved', error);
        toast.error(photosMessages.notSaved);
      } finally {
        setPreparingPhoto(false);
      }
    },
    [person, slug, sendOriginals, preparePhoto, closed],
  );
  const onUpload = useCallback(
    (record: ProcedureRecord, kind: PhotoKind, file: File) => void startUpload(record, kind, file),
    [startUpload],
  );

  const cover = preparingPhoto ? <LoadingCover title={messages.loading.validating} /> : null;
  const savedAt = records.data?.pages.find((page) => page.savedAt !== undefined)?.savedAt;
  // Showing the phone's copy: ask the server again when the connection comes back, and every little
  // while meanwhile (a phone can say online with a network that carries nothing).
  const { refetch: refetchRecords } = records;
  const { refetch: refetchSummary } = summary;
  useEffect(() => {
    if (savedAt === undefined || !online) return;
    const again = () => {
      void refetchRecords();
      void refetchSummary();
    };
    again();
    const timer = setInterval(again, COPY_RETRY_MS);
    return () => clearInterval(timer);
  }, [savedAt, online, refetchRecords, refetchSummary]);
  const banner = !online || savedAt !== undefined ? <OfflineBanner savedAt={savedAt} /> : null;

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
        {dayStatus}
        {banner}
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
        {dayStatus}
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
      <p className="mt-1">
        <Link
          to={paths.field(slug)}
          className="font-semibold text-brand underline underline-offset-4 hover:text-brand-dark"
        >
          Ver el campo: quién tiene envíos pendientes
        </Link>
      </p>
      {dayStatus}
      {banner}
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
                slug={slug}
                records={list}
                hasNextPage={records.hasNextPage}
                isFetchingNextPage={records.isFetchingNextPage}
                fetchNextPage={fetchMore}
                onVote={openVote}
                onUpload={onUpload}
                canReplacePhotos={canReplacePhotos}
                viewer={person}
                closed={closed}
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
        onVote={() => void submitVote()}
        onCancel={closeVote}
        saving={savingVote}
      />
    </Page>
  );
}
