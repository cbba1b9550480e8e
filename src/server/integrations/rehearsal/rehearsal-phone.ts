// A validator's phone as the app's outbox behaves (decisions 046, 048, 060, 094): each item has its
// Idempotency-Key from capture and is sent again with it after a cut until an answer comes; photos go by
// tus and continue where a cut left them; the phone reports what waits and learns the day's era, which it
// stamps on what it captures.
import { createHash, randomUUID } from 'node:crypto';
import { voteFingerprint } from '#shared/platform/era';
import { type Answer, isRetryable, messageOf, type Session, sleep } from './rehearsal-http';

export type ItemKind = 'vote' | 'gobernador' | 'an' | 'clez';

export interface PhoneRecord {
  id: number;
  code: string;
}

export interface Item {
  key: string;
  kind: ItemKind;
  record: PhoneRecord;
  savedAt: string;
  era: string | null;
  candidates?: string[];
  photo?: { bytes: Uint8Array; sha256: string };
  /** tus: where the upload is, and how much of it the server has. */
  location?: string | null;
  offset?: number | null;
  state: 'waiting' | 'accepted' | 'refused';
  status?: number;
  reason?: string;
  /** When it was captured and when its answer came (ms since the epoch). */
  capturedAt: number;
  answeredAt?: number;
  replayed?: boolean;
  attempts: number;
}

export interface PhoneTally {
  onAccepted: (item: Item) => void;
  onRefused: (item: Item) => void;
}

const TUS = { 'tus-resumable': '1.0.0' };
const tusMetadata = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

export class Phone {
  readonly deviceId = randomUUID();
  era: string | null = null;
  readonly outbox: Item[] = [];
  readonly done: Item[] = [];
  /** Captured at the close and never sent before the drill ended (they arrive late). */
  readonly held: Item[] = [];
  lastSuccessAt: string | null = null;
  lastError: { message: string; at: string } | null = null;
  candidates: string[] = [];
  captured = 0;

  constructor(
    public session: Session,
    readonly email: string,
    readonly slug: string,
    readonly records: PhoneRecord[],
    public tally: PhoneTally,
    readonly retryBaseMs: number,
    readonly smsPhone: string | null = null,
  ) {}

  /** Signs in, through its own link, until it works (cuts included) or `tries` run out. */
  async signIn(password: string, tries = 20): Promise<void> {
    for (let attempt = 0; attempt < tries; attempt++) {
      try {
        const answer = await this.session.call('sesión de teléfono', 'POST', '/api/auth/login', {
          json: { email: this.email, password },
        });
        if (answer.status === 200) return;
        if (answer.status < 500 && answer.status !== 429) throw new Error(`${answer.status} ${messageOf(answer)}`);
      } catch (error) {
        if (!isRetryable(error)) throw error;
      }
      await sleep(this.backoff(attempt), this.session.signal);
    }
    throw new Error(`${this.email} no pudo entrar`);
  }

  /**
   * The ballot's candidates and the department's list, page by page as the validation page loads it; the
   * phone keeps its share of the records not voted (share `index` of `size`): a record is one phone's only.
   */
  async load(index: number, size: number, tries = 20): Promise<void> {
    const all: PhoneRecord[] = [];
    let after: number | null = null;
    let candidates = false;
    for (let attempt = 0; attempt < tries; ) {
      try {
        if (!candidates) {
          const answer = await this.session.call('candidatos', 'GET', '/api/candidates');
          if (answer.status !== 200) throw new Error(`candidatos: ${answer.status} ${messageOf(answer)}`);
          this.candidates = answer.json<{ items: { code: string }[] }>().items.map((c) => c.code);
          candidates = true;
        }
        const page = await this.session.call(
          'lista de trámites',
          'GET',
          `/api/validation/${this.slug}/records?limit=100${after === null ? '' : `&after=${after}`}`,
        );
        if (page.status !== 200) throw new Error(`lista de ${this.slug}: ${page.status} ${messageOf(page)}`);
        const body = page.json<{
          items: { id: number; code: string; votedAt: string | null }[];
          nextCursor: number | null;
        }>();
        for (const r of body.items) if (r.votedAt === null) all.push({ id: r.id, code: r.code });
        after = body.nextCursor;
        if (after === null || all.length >= (index + 1) * size) {
          this.records.push(...all.slice(index * size, (index + 1) * size));
          return;
        }
      } catch (error) {
        if (!isRetryable(error)) throw error;
        await sleep(this.backoff(attempt), this.session.signal);
        attempt += 1;
      }
    }
    throw new Error(`${this.email} no pudo cargar su lista`);
  }

  private backoff(attempt: number): number {
    return Math.min(this.retryBaseMs * 2 ** Math.min(attempt, 6), this.retryBaseMs * 30) * (0.5 + Math.random());
  }

  /** Captures the next record's vote (and, if asked, one of its photos), stamped with the era it knows. */
  capture(photo: { bytes: Uint8Array; sha256: string; kind: ItemKind } | null, into: Item[] = this.outbox): boolean {
    const record = this.records.shift();
    if (!record) return false;
    this.captured += 1;
    const codes = this.candidates.filter(() => Math.random() < 0.4).slice(0, 3);
    const base = { record, era: this.era, state: 'waiting' as const, capturedAt: Date.now(), attempts: 0 };
    into.push({ ...base, key: randomUUID(), kind: 'vote', savedAt: new Date().toISOString(), candidates: codes });
    if (photo) {
      into.push({
        ...base,
        key: randomUUID(),
        kind: photo.kind,
        savedAt: new Date().toISOString(),
        photo: { bytes: photo.bytes, sha256: photo.sha256 },
      });
    }
    return true;
  }

  /** What waits on the phone, as its field report names it. */
  waiting(): Item[] {
    return [...this.outbox, ...this.held];
  }

  /** The field report: what waits (with what it is and its era); the answer tells the day's era. */
  async report(): Promise<boolean> {
    const now = new Date().toISOString();
    try {
      const answer = await this.session.call('informe de campo', 'POST', '/api/field/reports', {
        json: {
          deviceId: this.deviceId,
          deviceNow: now,
          lastSuccessAt: this.lastSuccessAt,
          lastError: this.lastError,
          items: this.waiting()
            .slice(0, 500)
            .map((i) => ({
              key: i.key,
              slug: this.slug,
              recordId: i.record.id,
              kind: i.kind,
              savedAt: i.savedAt,
              fingerprint: i.kind === 'vote' ? voteFingerprint(i.candidates ?? []) : i.photo?.sha256,
              era: i.era,
            })),
        },
      });
      if (answer.status !== 200) return false;
      const era = answer.json<{ era?: { id: string } | null }>().era;
      if (era) this.era = era.id;
      return true;
    } catch (error) {
      if (isRetryable(error)) return false;
      throw error;
    }
  }

  /**
   * Sends the outbox's first item once. True when it has an answer (accepted or refused), false when it
   * must be tried again (a cut, no answer, a 5xx, a limit).
   */
  async sendNext(): Promise<boolean> {
    const item = this.outbox[0];
    if (!item) return true;
    item.attempts += 1;
    let outcome: Answer | 'again';
    try {
      outcome = item.kind === 'vote' ? await this.sendVote(item) : await this.sendPhoto(item);
    } catch (error) {
      if (isRetryable(error)) {
        this.lastError = { message: 'Sin conexión', at: new Date().toISOString() };
        return false;
      }
      throw error;
    }
    if (outcome === 'again') return false;
    if (outcome.status >= 500 || outcome.status === 429 || outcome.status === 423) return false;
    this.outbox.shift();
    this.settle(item, outcome);
    return true;
  }

  /** Sends an item whose answer is expected to be a refusal (after the drill): one try, its answer kept. */
  async sendLate(item: Item): Promise<Item> {
    item.attempts += 1;
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        const answer = item.kind === 'vote' ? await this.sendVote(item) : await this.sendPhoto(item);
        if (answer !== 'again' && answer.status < 500) {
          this.settle(item, answer);
          return item;
        }
      } catch (error) {
        if (!isRetryable(error)) throw error;
      }
      await sleep(this.backoff(attempt), this.session.signal);
    }
    return item;
  }

  private settle(item: Item, answer: Answer): void {
    item.status = answer.status;
    item.answeredAt = Date.now();
    item.replayed = answer.headers.get('idempotent-replayed') === 'true';
    if (answer.status === 201) {
      item.state = 'accepted';
      this.lastSuccessAt = new Date().toISOString();
      this.tally.onAccepted(item);
    } else {
      item.state = 'refused';
      item.reason = messageOf(answer);
      this.tally.onRefused(item);
    }
    this.done.push(item);
  }

  private sendVote(item: Item): Promise<Answer> {
    return this.session.call('voto', 'POST', `/api/validation/${this.slug}/records/${item.record.id}/vote`, {
      json: { candidates: item.candidates ?? [] },
      headers: { 'idempotency-key': item.key, ...(item.era ? { 'comando-era': item.era } : {}) },
    });
  }

  /** One step of a tus upload: start it, learn where it stands, send the rest, or ask for a lost answer. */
  private async sendPhoto(item: Item): Promise<Answer | 'again'> {
    const photo = item.photo as { bytes: Uint8Array; sha256: string };
    const key = { 'idempotency-key': item.key };
    if (!item.location) {
      const created = await this.session.call('foto: inicio (tus)', 'POST', '/api/photo-uploads', {
        headers: {
          ...TUS,
          ...key,
          'upload-length': String(photo.bytes.length),
          'upload-metadata': tusMetadata({
            slug: this.slug,
            recordId: String(item.record.id),
            kind: item.kind,
            filename: `boleta-${item.record.id}-${item.kind}.jpg`,
            filetype: 'image/jpeg',
            sha256: photo.sha256,
            ...(item.era ? { era: item.era } : {}),
          }),
        },
      });
      if (created.status !== 201) return created;
      item.location = new URL(created.headers.get('location') ?? '', this.session.base).pathname;
      item.offset = 0;
    }
    const location = item.location;
    if (item.offset === null || item.offset === undefined) {
      const head = await this.session.call('foto: dónde va (tus)', 'HEAD', location, { headers: { ...TUS, ...key } });
      if (head.status === 404 || head.status === 410) {
        item.location = null;
        return 'again';
      }
      if (head.status !== 200 && head.status !== 204) return head;
      item.offset = Number(head.headers.get('upload-offset') ?? 0);
    }
    if (item.offset >= photo.bytes.length) {
      // Every byte arrived but the answer was lost: ask for it (the outbox's own way).
      return this.session.call('foto: respuesta perdida (tus)', 'POST', `${location}/complete`, { headers: key });
    }
    const from = item.offset;
    item.offset = null;
    const patch = await this.session.call('foto: bytes (tus)', 'PATCH', location, {
      headers: {
        ...TUS,
        ...key,
        'upload-offset': String(from),
        'content-type': 'application/offset+octet-stream',
      },
      body: photo.bytes.subarray(from),
      partialOnCut: true,
      timeoutMs: 300_000,
    });
    if (patch.status === 204) {
      item.offset = Number(patch.headers.get('upload-offset') ?? from);
      return 'again';
    }
    // Another offset than the phone's, or already received: where it stands is asked next time.
    if (patch.status === 409) return 'again';
    if (patch.status === 404) {
      item.location = null;
      return 'again';
    }
    return patch;
  }
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
