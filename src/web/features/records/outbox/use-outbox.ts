import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { PhotoUploadResult } from '#shared/features/photos/photos';
import { recordsMessages, type VoteResult } from '#shared/features/records/records';
import { eraMessages } from '#shared/platform/era';
import { isNetworkError } from '#web/platform/lib/api-client';
import { recordsQueryRoots } from '#web/platform/lib/query-keys';
import { useSession } from '#web/platform/session/get-session';
import { rememberedSession } from '#web/platform/session/known-session';
import { recordsKeys, replaceRecordInLists } from '../api/get-records';
import { forgetCopies } from '../device/device-copies';
import { rememberedOwner } from '../device/device-hints';
import { deviceOutbox } from './device-outbox';
import type { OutboxSnapshot } from './outbox';
import { needsSending, type OutboxItem } from './outbox-item';
import { outboxMessages } from './outbox-labels';

/**
 * Whose items this phone shows: the signed-in person; while the session cannot be asked (no
 * connection, or not answered yet), the last person signed in here; nobody once the server said no one
 * is signed in. A shared phone never shows one person's votes and photos to the next (docs/decisions/061).
 */
export function useOutboxViewer(): string | null {
  const session = useSession();
  if (session.data) return session.data.user?.email ?? null;
  if (session.isPending || isNetworkError(session.error)) {
    // Only while the frame still shows that person signed in: a sign-out forgets the session the phone
    // knew, and a late write of the last owner must not bring their items back under another's eyes.
    const owner = rememberedOwner();
    return owner !== null && rememberedSession()?.user?.email === owner ? owner : null;
  }
  return null;
}

/** Everything in the phone's outbox, kept current. */
export function useOutbox(): OutboxSnapshot {
  const outbox = deviceOutbox();
  return useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
}

/** One record's items and the progress of the one on its way; the same object while they do not change. */
export interface RecordOutbox {
  items: OutboxItem[];
  progress: number | undefined;
}

const EMPTY: RecordOutbox = { items: [], progress: undefined };
const byRecord = new Map<string, RecordOutbox>();

function selectRecord(snapshot: OutboxSnapshot, slug: string, recordId: number, viewer: string | null): RecordOutbox {
  const id = `${slug}|${recordId}`;
  const items = snapshot.items.filter((i) => i.owner === viewer && i.slug === slug && i.recordId === recordId);
  const sending = items.find((i) => i.state === 'sending');
  const progress = sending ? snapshot.progress.get(sending.seq) : undefined;
  const previous = byRecord.get(id) ?? EMPTY;
  if (
    previous.progress === progress &&
    previous.items.length === items.length &&
    previous.items.every((item, i) => item === items[i])
  ) {
    return previous;
  }
  const next = items.length === 0 ? EMPTY : { items, progress };
  byRecord.set(id, next);
  return next;
}

/**
 * A card's items of the person shown (`viewer`): only that card renders again when they change (an
 * upload's progress, say).
 */
export function useRecordOutbox(slug: string, recordId: number, viewer: string | null): RecordOutbox {
  const outbox = deviceOutbox();
  return useSyncExternalStore(outbox.subscribe, () => selectRecord(outbox.getSnapshot(), slug, recordId, viewer));
}

/**
 * The navbar's count for the person shown: items still to be sent, and refusals they can still act on
 * ('Reintentar'); a refusal that can never succeed is not counted.
 */
export function useWaitingCount(viewer: string | null): number {
  const outbox = deviceOutbox();
  return useSyncExternalStore(
    outbox.subscribe,
    () => outbox.getSnapshot().items.filter((i) => i.owner === viewer && needsSending(i)).length,
  );
}

export interface OutboxConnectionOptions {
  /** The signed-in person (null: nobody, or unknown because there is no connection). */
  owner: string | null;
  /** The server answered 401: the app asks for the session again (and so shows /login). */
  onSessionEnded?: () => void;
}

/** The one 'Votaste con éxito' toast, however many votes arrive. */
const VOTE_SENT_TOAST = 'voto-enviado';

/** Refusals of votes on screen now (their toast ids): no success toast stands beside one. */
const voteRefusalsShown = new Set<string>();

/**
 * Connects the phone's outbox to the session and to the lists on screen: the signed-in person's items
 * are sent; each answer updates its record in place; a refusal is said once; a vote that arrived says
 * 'Votaste con éxito' (one toast, however many arrive). A vote refused (after the close, say) never has a
 * success toast beside it: the success goes, and none is shown while the refusal is (the cards say which
 * vote arrived). Item states live on the cards.
 */
export function useOutboxConnection({ owner, onSessionEnded }: OutboxConnectionOptions): void {
  const queryClient = useQueryClient();
  const ended = useRef(onSessionEnded);
  ended.current = onSessionEnded;
  useEffect(() => {
    deviceOutbox().connect(owner, {
      onSent(item, body) {
        const answer = body as VoteResult | PhotoUploadResult | undefined;
        if (answer?.record) replaceRecordInLists(queryClient, item.slug, answer.record);
        void queryClient.invalidateQueries({ queryKey: recordsKeys.summary(item.slug) });
        if (item.kind !== 'vote') return;
        for (const id of voteRefusalsShown) if (!toast.isActive(id)) voteRefusalsShown.delete(id);
        if (voteRefusalsShown.size === 0) toast.success(recordsMessages.voteSuccess, { toastId: VOTE_SENT_TOAST });
      },
      onRejected(item) {
        // Someone else voted or filled the slot first, or the record is gone: show what the server has.
        void queryClient.invalidateQueries({ queryKey: recordsKeys.all(item.slug) });
        if (item.kind === 'vote') {
          toast.dismiss(VOTE_SENT_TOAST);
          voteRefusalsShown.add(item.key);
        }
        toast.error(`${item.recordName}: ${item.rejection?.message ?? ''}`, { toastId: item.key });
      },
      onDropped(item, message) {
        void queryClient.invalidateQueries({ queryKey: recordsKeys.all(item.slug) });
        toast.info(`${item.recordName}: ${message}`, { toastId: item.key });
      },
      onDrillEnded() {
        // What the phone kept of the drill's lists goes too; the lists are read again from the server.
        void forgetCopies().finally(
          () => void queryClient.invalidateQueries({ queryKey: recordsQueryRoots.validation }),
        );
        toast.info(eraMessages.drillEnded, { toastId: 'simulacro-terminado' });
      },
      onUnauthorized() {
        ended.current?.();
      },
      onNotKept(item) {
        toast.warning(`${item.recordName}: ${outboxMessages.notKept}`, { toastId: `no-guardada-${item.key}` });
      },
      onResending(items) {
        toast.info(outboxMessages.resending(items.length), { toastId: 'reenvio-tras-restauracion' });
      },
    });
  }, [owner, queryClient]);
}
