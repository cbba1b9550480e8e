import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ItemsHeld } from '#shared/features/election/election';
import { memoryDeviceStore } from '../device/device-store';
import { createOutbox, KEEP_SENT_MS, PHOTO_BYTES_KEPT, SECURED_CHECK_MS, type Transport } from './outbox';
import type { OutboxItem } from './outbox-item';
import { stateLabel } from './outbox-labels';

/*
 * 'Enviado' then 'Asegurado' (decision 135): the phone keeps each item, photo bytes included, until the
 * server says its off-machine copy has it; a server restored from a copy is asked which items it has and
 * sent again only the ones it lacks; the phone's photo bytes stay under a bound.
 */

const ANA = 'ana@example.org';
const vote = (recordId: number) => ({
  owner: ANA,
  slug: 'cabimas',
  recordId,
  recordName: `Persona ${recordId}`,
  candidates: ['FA'],
});
const photo = (recordId: number, bytes = 100) => ({
  owner: ANA,
  slug: 'cabimas',
  recordId,
  recordName: `Persona ${recordId}`,
  photoKind: 'gobernador' as const,
  file: { name: 'IMG_1.JPG', type: 'image/jpeg', data: new Uint8Array(bytes).buffer },
});

/** A server that takes every item, remembers its key, and answers the phone's question about them. */
function fakeServer() {
  const state = { epoch: 1, held: new Set<string>(), secured: new Set<string>(), sends: [] as string[] };
  const transport: Transport = async (item) => {
    state.sends.push(item.key);
    state.held.add(item.key);
    return { status: 201, body: {} };
  };
  const askItems = async (keys: string[]): Promise<ItemsHeld> => ({
    epoch: { number: state.epoch, startedAt: '2026-11-23T03:00:00.000Z', restoredUntil: null },
    copy: 'litestream',
    held: keys.filter((k) => state.held.has(k)),
    secured: keys.filter((k) => state.secured.has(k)),
  });
  return { state, transport, askItems };
}

function setup(options: { maxPhotoBytes?: number } = {}) {
  const server = fakeServer();
  let epoch: number | null = null;
  const outbox = createOutbox({
    store: memoryDeviceStore(),
    transport: server.transport,
    askItems: server.askItems,
    epochs: { read: () => epoch, write: (n) => (epoch = n) },
    ...options,
  });
  return { server, outbox };
}

const settle = () => vi.advanceTimersByTimeAsync(0);
const labels = (outbox: ReturnType<typeof createOutbox>) =>
  outbox.getSnapshot().items.map((i) => `${i.recordId}:${i.kind}:${stateLabel(i, undefined)}`);
const byRecord = (outbox: ReturnType<typeof createOutbox>, id: number) =>
  outbox.getSnapshot().items.find((i) => i.recordId === id) as OutboxItem;
const bytesOf = (item: OutboxItem) => (item.kind === 'photo' ? (item.file.data?.byteLength ?? 0) : 0);

beforeEach(() => {
  vi.useFakeTimers({
    now: new Date('2026-11-23T03:30:00Z'),
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Enviado, then Asegurado', () => {
  it('keeps a sent photo’s bytes until the copy has it, then says Asegurado and forgets it a day later', async () => {
    const { server, outbox } = setup();
    await outbox.addVote(vote(1));
    await outbox.addPhoto(photo(1));
    outbox.connect(ANA);
    await settle();
    expect(labels(outbox)).toEqual(['1:vote:Enviado', '1:photo:Enviado']);
    expect(bytesOf(outbox.getSnapshot().items[1] as OutboxItem)).toBe(100);

    // The copy reaches the vote only: at the next check the vote is Asegurado, the photo still Enviado.
    const [voteKey, photoKey] = outbox.getSnapshot().items.map((i) => i.key) as [string, string];
    server.state.secured.add(voteKey);
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    expect(labels(outbox)).toEqual(['1:vote:Asegurado', '1:photo:Enviado']);
    server.state.secured.add(photoKey);
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    expect(labels(outbox)).toEqual(['1:vote:Asegurado', '1:photo:Asegurado']);

    // A day after the copy had them, they leave the phone; what is only Enviado stays.
    await outbox.addVote(vote(2));
    await settle();
    await vi.advanceTimersByTimeAsync(KEEP_SENT_MS + SECURED_CHECK_MS);
    expect(labels(outbox)).toEqual(['2:vote:Enviado']);
  });

  it('never marks anything Asegurado while the server has no copy, and keeps it past a day', async () => {
    const { outbox } = setup();
    await outbox.addPhoto(photo(1));
    outbox.connect(ANA);
    await settle();
    await vi.advanceTimersByTimeAsync(KEEP_SENT_MS + SECURED_CHECK_MS * 2);
    expect(labels(outbox)).toEqual(['1:photo:Enviado']);
    expect(bytesOf(byRecord(outbox, 1))).toBe(100);
  });

  it('keeps what is only Enviado at a sign-out; what is Asegurado goes', async () => {
    const { server, outbox } = setup();
    await outbox.addVote(vote(1));
    await outbox.addVote(vote(2));
    outbox.connect(ANA);
    await settle();
    server.state.secured.add(byRecord(outbox, 1).key);
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    await outbox.signOut();
    expect(labels(outbox)).toEqual(['2:vote:Enviado']);
  });
});

describe('a server restored from a copy (a new epoch)', () => {
  it('is asked which items it has, and sent again only those it lacks, with their same keys', async () => {
    const { server, outbox } = setup();
    const resending: number[] = [];
    await outbox.addVote(vote(1));
    await outbox.addPhoto(photo(1));
    await outbox.addVote(vote(2));
    outbox.connect(ANA, { onResending: (items) => resending.push(items.length) });
    await settle();
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    const keys = outbox.getSnapshot().items.map((i) => i.key);
    expect(server.state.sends).toEqual(keys);
    server.state.secured.add(keys[0] as string);
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);

    // The server is lost and restored from a copy that holds the first vote only: a new epoch.
    server.state.held = new Set([keys[0] as string]);
    server.state.secured = new Set([keys[0] as string]);
    server.state.epoch = 2;
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    await settle();
    // The photo and the second vote went again, once each, with the keys they had; the first did not.
    expect(server.state.sends).toEqual([...keys, keys[1], keys[2]]);
    expect(resending).toEqual([2]);
    expect(labels(outbox)).toEqual(['1:vote:Asegurado', '1:photo:Enviado', '2:vote:Enviado']);
    expect(
      outbox
        .getSnapshot()
        .items.filter((i) => i.resent)
        .map((i) => i.key),
    ).toEqual([keys[1], keys[2]]);
    // Nothing more goes at the next checks: the epoch is known now.
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS * 3);
    expect(server.state.sends).toHaveLength(5);
  });
});

describe('the bound on photo bytes', () => {
  it('drops the bytes of photos Asegurado first, oldest first, then of those only Enviado, saying so; never of one to send', async () => {
    const { server, outbox } = setup({ maxPhotoBytes: 250 });
    const notKept: number[] = [];
    outbox.connect(ANA, { onNotKept: (item) => notKept.push(item.recordId) });
    await outbox.addPhoto(photo(1));
    await settle();
    await outbox.addPhoto(photo(2));
    await settle();
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    server.state.secured = new Set(outbox.getSnapshot().items.map((i) => i.key));
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS);
    expect(labels(outbox)).toEqual(['1:photo:Asegurado', '2:photo:Asegurado']);

    // A third photo passes the bound: the oldest Asegurado photo's bytes go, quietly.
    await outbox.addPhoto(photo(3));
    await settle();
    expect([1, 2, 3].map((id) => bytesOf(byRecord(outbox, id)))).toEqual([0, 100, 100]);
    expect(notKept).toEqual([]);

    // Offline, two more wait: the other Asegurado bytes go, then the Enviado photo's, and the person is told.
    outbox.stop();
    await outbox.addPhoto(photo(4));
    await outbox.addPhoto(photo(5));
    expect([1, 2, 3, 4, 5].map((id) => bytesOf(byRecord(outbox, id)))).toEqual([0, 0, 0, 100, 100]);
    expect(notKept).toEqual([3]);
    // Past the bound with only photos to send: they are kept all the same.
    await outbox.addPhoto(photo(6));
    expect([4, 5, 6].map((id) => bytesOf(byRecord(outbox, id)))).toEqual([100, 100, 100]);
  });
});

describe('a phone’s storage after a day', () => {
  it('150 records with three photos each: every vote kept, photo bytes at most the bound, nothing a day after', async () => {
    // At a hundredth of the real sizes (a right-sized photo is about 662,000 bytes, the bound 200 MiB),
    // so that the test holds 3 MB, not 300: the outbox's arithmetic is the same.
    const SCALE = 100;
    const photoSize = Math.round(662_047 / SCALE);
    const bound = Math.round(PHOTO_BYTES_KEPT / SCALE);
    const { server, outbox } = setup({ maxPhotoBytes: bound });
    const notKept: number[] = [];
    outbox.connect(ANA, { onNotKept: (item) => notKept.push(item.recordId) });
    // The copy keeps up: everything the server holds is in it.
    server.state.secured = server.state.held;
    for (let record = 1; record <= 150; record++) {
      await outbox.addVote(vote(record));
      for (const kind of ['gobernador', 'an', 'clez'] as const) {
        await outbox.addPhoto({ ...photo(record, photoSize), photoKind: kind });
      }
      // One voter every four minutes: a ten-hour day.
      await vi.advanceTimersByTimeAsync(4 * 60_000);
    }
    const items = outbox.getSnapshot().items;
    const kept = items.reduce((sum, i) => sum + bytesOf(i), 0);
    expect(items.filter((i) => i.kind === 'vote')).toHaveLength(150);
    expect(items.every((i) => i.state === 'sent' && i.securedAt)).toBe(true);
    // 450 photos made (about 298 MB); the newest that fit under the bound kept, the oldest dropped first.
    const fit = Math.floor(bound / photoSize);
    expect(kept).toBe(fit * photoSize);
    expect(items.filter((i) => bytesOf(i) > 0).map((i) => i.recordId)[0]).toBe(150 - Math.ceil(fit / 3) + 1);
    expect(notKept).toEqual([]);
    // A day after the last was secured, the phone holds nothing of that day.
    await vi.advanceTimersByTimeAsync(KEEP_SENT_MS + SECURED_CHECK_MS);
    await outbox.addVote(vote(151));
    await vi.advanceTimersByTimeAsync(SECURED_CHECK_MS * 2);
    expect(outbox.getSnapshot().items.map((i) => i.recordId)).toEqual([151]);
  });
});
