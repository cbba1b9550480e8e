import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { toast } from 'react-toastify/unstyled';
import type { PhotoUploadResult } from '#shared/features/records/photos';
import { recordsMessages, type VoteResult } from '#shared/features/records/records';
import { recordsKeys, replaceRecordInLists } from '../api/get-records';
import { deviceOutbox } from './device-outbox';
import type { OutboxSnapshot } from './outbox';
import { isUnsent, type OutboxItem } from './outbox-item';

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

function selectRecord(snapshot: OutboxSnapshot, slug: string, recordId: number): RecordOutbox {
  const id = `${slug}|${recordId}`;
  const items = snapshot.items.filter((i) => i.slug === slug && i.recordId === recordId);
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

/** A card's items: only that card renders again when they change (an upload's progress, say). */
export function useRecordOutbox(slug: string, recordId: number): RecordOutbox {
  const outbox = deviceOutbox();
  return useSyncExternalStore(outbox.subscribe, () => selectRecord(outbox.getSnapshot(), slug, recordId));
}

/** How many items the server does not have yet (of everybody on this phone). */
export function useUnsentCount(): number {
  const outbox = deviceOutbox();
  return useSyncExternalStore(outbox.subscribe, () => outbox.getSnapshot().items.filter(isUnsent).length);
}

export interface OutboxConnectionOptions {
  /** The signed-in person (null: nobody, or unknown because there is no connection). */
  owner: string | null;
  /** The server answered 401: the app asks for the session again (and so shows /login). */
  onSessionEnded?: () => void;
}

/**
 * Connects the phone's outbox to the session and to the lists on screen: the signed-in person's items
 * are sent; each answer updates its record in place; a refusal is said once; a vote that arrived says
 * 'Votaste con éxito' (one toast, however many arrive). Item states live on the cards.
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
        if (item.kind === 'vote') toast.success(recordsMessages.voteSuccess, { toastId: 'voto-enviado' });
      },
      onRejected(item) {
        // Someone else voted or filled the slot first, or the record is gone: show what the server has.
        void queryClient.invalidateQueries({ queryKey: recordsKeys.all(item.slug) });
        toast.error(`${item.recordName}: ${item.rejection?.message ?? ''}`, { toastId: item.key });
      },
      onUnauthorized() {
        ended.current?.();
      },
    });
  }, [owner, queryClient]);
}
