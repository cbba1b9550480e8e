import type { PhotoKind } from '#shared/platform/constants';

/**
 * saved: on the phone, waiting its turn (or its next try); sending: on its way now; sent: the server
 * has it; rejected: the server said no for a reason a retry will not change (until someone acts).
 */
export type OutboxState = 'saved' | 'sending' | 'sent' | 'rejected';

/** A photo's bytes, copied off the file picker when it was taken (a File can stop being readable). */
export interface OutboxFile {
  name: string;
  type: string;
  /**
   * Kept until the off-machine copy has the photo ('Asegurado', decision 135), so that a server restored
   * from the copy can be sent it again; dropped then, or earlier past the phone's bound (PHOTO_BYTES_KEPT).
   */
  data: ArrayBuffer | null;
  /** What is sent, in bytes (kept after `data` is dropped). */
  size?: number;
  /** The picked photo's size when the phone sent a right-sized copy instead (docs/decisions/047). */
  originalSize?: number;
  /**
   * The SHA-256 of `data`, made when the photo was taken and sent with every try (docs/decisions/082);
   * absent on photos saved before phones made it, which the server then hashes as they arrive.
   */
  sha256?: string;
}

interface ItemBase {
  /** Order of arrival on this phone (IndexedDB key). */
  seq: number;
  /** The Idempotency-Key: a UUID made when the person acted; every try sends the same one. */
  key: string;
  /** Whose it is: only that person's session sends it. */
  owner: string;
  slug: string;
  recordId: number;
  /** For the list of waiting items: which record, by name. */
  recordName: string;
  state: OutboxState;
  /** Tries that ended without an answer (network, timeout, server error). */
  attempts: number;
  /** Not sent before this instant (ms since 1970): the backoff after a failed try. */
  nextAttemptAt: number;
  /** Why the last try failed, while it will be tried again. */
  lastError: string | null;
  /** The server's refusal (status and Spanish message) once rejected. */
  rejection: { status: number; message: string } | null;
  createdAt: number;
  sentAt: number | null;
  /**
   * When the server said its off-machine copy holds the item ('Asegurado', decision 135); null or absent
   * while it is only 'Enviado'. Items are kept on the phone until then.
   */
  securedAt?: number | null;
  /**
   * Sent again because the server was restored from a copy that lacked it (a new epoch, decision 135):
   * the field report counts these for Campo.
   */
  resent?: boolean;
  /**
   * The day's era the phone knew when the person acted (decision 094), and whether it was a drill's: sent
   * with every try; a drill's item is dropped once the phone hears the drill has ended. Absent on items
   * saved before phones stamped them, or before the phone first heard of an era.
   */
  era?: string | null;
  eraDrill?: boolean;
}

export interface VoteItem extends ItemBase {
  kind: 'vote';
  candidates: string[];
}

export interface PhotoItem extends ItemBase {
  kind: 'photo';
  photoKind: PhotoKind;
  file: OutboxFile;
  /** The server's warning once sent (the same image was used for another record). */
  warning: string | null;
  /**
   * Where the server keeps what it received of this photo (its tus upload), so the next try continues
   * from there; absent until the first try, and on items saved before resumable uploads.
   */
  uploadUrl?: string | null;
}

export type OutboxItem = VoteItem | PhotoItem;

/** What the person asked for; the rest is filled in when it is saved. */
export type NewVote = Pick<VoteItem, 'owner' | 'slug' | 'recordId' | 'recordName' | 'candidates'>;
export type NewPhoto = Pick<PhotoItem, 'owner' | 'slug' | 'recordId' | 'recordName' | 'photoKind' | 'file'>;

/** The server has it and its off-machine copy too: 'Asegurado'. */
export const isSecured = (item: OutboxItem): boolean => item.state === 'sent' && !!item.securedAt;

/** Not yet accepted by the server (waiting or refused): kept on the phone until someone acts. */
export const isUnsent = (item: OutboxItem): boolean => item.state !== 'sent';

/** On the phone and still to be sent (or on its way): what 'Cerrar sesión' asks about. */
export const isWaiting = (item: OutboxItem): boolean => item.state === 'saved' || item.state === 'sending';

/**
 * A refusal that may turn into a success later, so 'Reintentar' makes sense: the department (403) or the
 * record (404) is not available to this person now, and an admin may give it back. Every other refusal
 * can never succeed (already voted, voided by the coordination, a file that is not a photo...).
 */
export const mayRetryRefusal = (item: OutboxItem): boolean =>
  item.state === 'rejected' && (item.rejection?.status === 403 || item.rejection?.status === 404);

/** What the navbar counts: what waits, and refusals the person can still do something about. */
export const needsSending = (item: OutboxItem): boolean => isWaiting(item) || mayRetryRefusal(item);

/** An item before the phone gave it its place in the queue. */
export type UnsavedItem = Omit<VoteItem, 'seq'> | Omit<PhotoItem, 'seq'>;
