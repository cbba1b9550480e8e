import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#web/platform/lib/api-client';
import { memoryDeviceStore, openDeviceStore } from '../device/device-store';
import { BACKOFF, createOutbox, type SendAnswer, type Transport } from './outbox';
import type { OutboxItem } from './outbox-item';

const ANA = 'ana@example.org';
const vote = (recordId: number, owner = ANA) => ({
  owner,
  slug: 'cabimas',
  recordId,
  recordName: `Persona ${recordId}`,
  candidates: ['FA'],
});
const photo = (recordId: number) => ({
  owner: ANA,
  slug: 'cabimas',
  recordId,
  recordName: `Persona ${recordId}`,
  photoKind: 'gobernador' as const,
  file: { name: 'IMG_1.JPG', type: 'image/jpeg', data: new Uint8Array([0xff, 0xd8, 0xff]).buffer },
});

/** A server whose answers the test gives, one request at a time. */
function fakeServer() {
  const calls: { item: OutboxItem; answer: (a: SendAnswer) => void; fail: (e: Error) => void }[] = [];
  const transport: Transport = (item, { signal }) =>
    new Promise((resolve, reject) => {
      const call = { item, answer: resolve, fail: reject };
      signal.addEventListener('abort', () => {
        calls.splice(calls.indexOf(call), 1);
        reject(new ApiError(0, 'abortado'));
      });
      calls.push(call);
    });
  return {
    transport,
    calls,
    /** Answers the oldest open request. */
    async reply(status: number, body: unknown = {}) {
      const call = calls.shift();
      if (!call) throw new Error('no request is waiting');
      call.answer({ status, body });
      await vi.advanceTimersByTimeAsync(0);
      return call.item;
    },
    async drop() {
      const call = calls.shift();
      if (!call) throw new Error('no request is waiting');
      call.fail(new ApiError(0, 'No hay conexión con el servidor.'));
      await vi.advanceTimersByTimeAsync(0);
      return call.item;
    },
  };
}

const settle = () => vi.advanceTimersByTimeAsync(0);
const states = (outbox: ReturnType<typeof createOutbox>) =>
  outbox.getSnapshot().items.map((i) => `${i.recordId}:${i.kind}:${i.state}`);

beforeEach(() => {
  // setImmediate stays real: fake-indexeddb schedules its work with it.
  vi.useFakeTimers({
    now: new Date('2026-11-23T03:30:00Z'),
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('outbox', () => {
  it('drops, without asking, an item the server says was of the drill', async () => {
    const server = fakeServer();
    const dropped: string[] = [];
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport });
    await outbox.addVote(vote(1));
    await outbox.addVote(vote(2));
    outbox.connect(ANA, { onDropped: (item, message) => dropped.push(`${item.recordId}: ${message}`) });
    await settle();
    await server.reply(410, { message: 'Era del simulacro' });
    await server.reply(201);
    expect(states(outbox)).toEqual(['2:vote:sent']);
    expect(dropped).toEqual(['1: Era del simulacro']);
    expect(outbox.unsent()).toEqual([]);
  });

  it('stamps each item with the era it was made in, and drops the drill’s items, sent or waiting, when the drill has ended', async () => {
    const server = fakeServer();
    const drill = { id: '0c6f6c1e-8b5a-4d39-9a77-6b1f2f0a9d01', drill: true };
    const day = { id: '7d1e2c3b-4a59-4f68-8e77-9c0b1a2d3e4f', drill: false };
    let era: typeof drill | null = drill;
    const ended: string[] = [];
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport, era: () => era });
    outbox.connect(ANA, { onDrillEnded: () => ended.push('simulacro terminado') });
    await outbox.addVote(vote(1));
    await settle();
    await server.reply(201);
    // Offline: the next ones wait on the phone.
    server.calls.length = 0;
    outbox.stop();
    await outbox.addVote(vote(2));
    await outbox.addPhoto(photo(2));
    expect(outbox.getSnapshot().items.map((i) => [i.era, i.eraDrill])).toEqual([
      [drill.id, true],
      [drill.id, true],
      [drill.id, true],
    ]);
    era = day;
    await outbox.addVote(vote(3));
    await outbox.eraChanged(day, drill);
    expect(states(outbox)).toEqual(['3:vote:saved']);
    expect(outbox.getSnapshot().items[0]?.era).toBe(day.id);
    expect(ended).toEqual(['simulacro terminado']);
    // Heard again, the same era changes nothing.
    await outbox.eraChanged(day, day);
    expect(ended).toHaveLength(1);
  });

  it('sends what was saved in order, one request at a time, and marks each sent', async () => {
    const server = fakeServer();
    const sent: number[] = [];
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport });
    await outbox.addVote(vote(1));
    await outbox.addPhoto(photo(1));
    await outbox.addVote(vote(2));
    expect(states(outbox)).toEqual(['1:vote:saved', '1:photo:saved', '2:vote:saved']);

    outbox.connect(ANA, { onSent: (item) => sent.push(item.recordId) });
    await settle();
    expect(server.calls).toHaveLength(1);
    expect(states(outbox)).toEqual(['1:vote:sending', '1:photo:saved', '2:vote:saved']);
    await server.reply(201);
    expect(server.calls.map((c) => c.item.kind)).toEqual(['photo']);
    await server.reply(201, { warning: 'Atención: esta misma imagen ya se usó en otro trámite.' });
    await server.reply(201);
    expect(states(outbox)).toEqual(['1:vote:sent', '1:photo:sent', '2:vote:sent']);
    expect(sent).toEqual([1, 1, 2]);
    const sentPhoto = outbox.getSnapshot().items[1];
    // The photo's bytes stay until the off-machine copy has it (decision 135); its warning is on the card.
    expect(sentPhoto?.kind === 'photo' && sentPhoto.file.data?.byteLength).toBe(3);
    expect(sentPhoto?.kind === 'photo' && sentPhoto.warning).toBe(
      'Atención: esta misma imagen ya se usó en otro trámite.',
    );
    expect(outbox.unsent()).toEqual([]);
  });

  it('tries again after 2, 4, 8 s … (at most a minute) with the same key while no answer comes', async () => {
    const server = fakeServer();
    // random() = 1: the longest wait of each step, so the test knows the instants.
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport, random: () => 1 });
    const item = await outbox.addVote(vote(7));
    outbox.connect(ANA);
    await settle();
    const keys: string[] = [];
    for (const wait of [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]) {
      keys.push((await server.drop()).key);
      expect(outbox.getSnapshot().items[0]).toMatchObject({
        state: 'saved',
        lastError: 'No hay conexión con el servidor.',
      });
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(server.calls).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(server.calls).toHaveLength(1);
    }
    expect(new Set(keys)).toEqual(new Set([item.key]));
    expect(BACKOFF.maxMs).toBe(60_000);
    await server.reply(201);
    expect(states(outbox)).toEqual(['7:vote:sent']);
    expect(outbox.getSnapshot().items[0]?.attempts).toBe(7);
  });

  it('treats 5xx and 429 as no answer, but keeps a refusal (409, 422…) with the server’s reason and goes on', async () => {
    const server = fakeServer();
    const rejected: string[] = [];
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport, random: () => 0 });
    await outbox.addVote(vote(1));
    await outbox.addVote(vote(2));
    outbox.connect(ANA, { onRejected: (item) => rejected.push(item.rejection?.message ?? '') });
    await settle();
    await server.reply(503, { message: 'La base de datos no responde.' });
    expect(states(outbox)).toEqual(['1:vote:saved', '2:vote:saved']);
    await vi.advanceTimersByTimeAsync(1_000);
    await server.reply(409, { message: 'Este trámite ya fue votado por luis@example.org el 22 nov a las 23:31.' });
    expect(states(outbox)).toEqual(['1:vote:rejected', '2:vote:sending']);
    expect(outbox.getSnapshot().items[0]?.rejection).toEqual({
      status: 409,
      message: 'Este trámite ya fue votado por luis@example.org el 22 nov a las 23:31.',
    });
    expect(rejected).toEqual(['Este trámite ya fue votado por luis@example.org el 22 nov a las 23:31.']);
    // The record is not available to the person now (an admin may give it back): refused too.
    await server.reply(404, { message: 'El trámite no existe.' });
    expect(states(outbox)).toEqual(['1:vote:rejected', '2:vote:rejected']);
    // 'Reintentar' never sends what can never succeed (already voted)…
    await outbox.retry(outbox.getSnapshot().items[0]?.seq ?? 0);
    await settle();
    expect(server.calls).toHaveLength(0);
    expect(states(outbox)).toEqual(['1:vote:rejected', '2:vote:rejected']);
    // …and puts back in line what may now succeed.
    await outbox.retry(outbox.getSnapshot().items[1]?.seq ?? 0);
    await settle();
    expect(server.calls.map((c) => c.item.recordId)).toEqual([2]);
    await server.reply(201);
    expect(states(outbox)).toEqual(['1:vote:rejected', '2:vote:sent']);
  });

  it('stops at a 401, keeps the item waiting, and resumes when a session is connected again', async () => {
    const server = fakeServer();
    let ended = 0;
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport });
    await outbox.addVote(vote(1));
    await outbox.addVote(vote(2));
    outbox.connect(ANA, { onUnauthorized: () => ended++ });
    await settle();
    await server.reply(401, { message: 'Debes iniciar sesión para continuar.' });
    expect(ended).toBe(1);
    expect(states(outbox)).toEqual(['1:vote:saved', '2:vote:saved']);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.calls).toHaveLength(0);

    // The app then learns the session is gone (nobody), and later that the person signed in again.
    outbox.connect(null);
    outbox.connect(ANA);
    await settle();
    await server.reply(201);
    await server.reply(201);
    expect(states(outbox)).toEqual(['1:vote:sent', '2:vote:sent']);
  });

  it('sends nothing while the browser is offline, and everything at once when it is back', async () => {
    const server = fakeServer();
    let online = false;
    const outbox = createOutbox({
      store: memoryDeviceStore(),
      transport: server.transport,
      isOnline: () => online,
      random: () => 1,
    });
    await outbox.addVote(vote(1));
    outbox.connect(ANA);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls).toHaveLength(0);
    online = true;
    outbox.connect(ANA);
    await settle();
    await server.drop();
    // The next try would be in two seconds; the connection coming back does not wait for it.
    await outbox.online();
    await settle();
    expect(server.calls).toHaveLength(1);
    await server.reply(201);
    expect(states(outbox)).toEqual(['1:vote:sent']);
  });

  it('sends only the signed-in person’s items and keeps one vote per record', async () => {
    const server = fakeServer();
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport });
    const first = await outbox.addVote(vote(1));
    expect(await outbox.addVote(vote(1))).toEqual(first);
    await outbox.addVote(vote(2, 'luis@example.org'));
    outbox.connect(ANA);
    await settle();
    await server.reply(201);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls).toHaveLength(0);
    expect(states(outbox)).toEqual(['1:vote:sent', '2:vote:saved']);
    expect(outbox.unsent('luis@example.org')).toHaveLength(1);
  });

  it('on sign-out keeps what is only sent (until the copy has it) and what was not unless told to drop it, and stops sending', async () => {
    const server = fakeServer();
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport });
    await outbox.addVote(vote(1));
    await outbox.addVote(vote(2));
    await outbox.addPhoto(photo(3));
    outbox.connect(ANA);
    await settle();
    await server.reply(201);
    expect(server.calls).toHaveLength(1);
    await outbox.signOut();
    expect(states(outbox)).toEqual(['1:vote:sent', '2:vote:saved', '3:photo:saved']);
    // The request on its way was stopped, and no try was counted against it.
    expect(outbox.getSnapshot().items[1]?.attempts).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls).toHaveLength(0);
    await outbox.signOut(ANA);
    expect(states(outbox)).toEqual(['1:vote:sent']);
  });

  it('removes a photo that is not on its way ("Quitar")', async () => {
    const server = fakeServer();
    const outbox = createOutbox({ store: memoryDeviceStore(), transport: server.transport });
    const item = await outbox.addPhoto(photo(4));
    await outbox.remove(item.seq);
    expect(states(outbox)).toEqual([]);
  });

  it('keeps items on the phone: a new page finds them waiting and sends them, even one that was on its way', async () => {
    const name = `prueba-${Math.random()}`;
    const server = fakeServer();
    const before = createOutbox({ store: await openDeviceStore(name), transport: server.transport });
    const item = await before.addPhoto(photo(5));
    before.connect(ANA);
    await settle();
    expect(server.calls).toHaveLength(1);
    // The tab is closed mid-upload: nothing answers, nothing is cleaned up.

    const after = createOutbox({ store: await openDeviceStore(name), transport: server.transport });
    await after.load();
    expect(states(after)).toEqual(['5:photo:saved']);
    const reread = after.getSnapshot().items[0];
    expect(reread?.key).toBe(item.key);
    expect(reread?.kind === 'photo' && new Uint8Array(reread.file.data ?? new ArrayBuffer(0))).toEqual(
      new Uint8Array([0xff, 0xd8, 0xff]),
    );
    after.connect(ANA);
    await settle();
    expect(server.calls.at(-1)?.item.key).toBe(item.key);
    before.stop();
  });

  it('keeps sent items past a day while the off-machine copy has not got them (decision 135)', async () => {
    const name = `prueba-${Math.random()}`;
    const server = fakeServer();
    const first = createOutbox({ store: await openDeviceStore(name), transport: server.transport });
    await first.addVote(vote(6));
    first.connect(ANA);
    await settle();
    await server.reply(201);
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000 + 1);
    const next = createOutbox({ store: await openDeviceStore(name), transport: server.transport });
    await next.load();
    expect(states(next)).toEqual(['6:vote:sent']);
  });

  it('keeps a photo’s upload address on the phone, so the next try, even after a restart, continues that upload', async () => {
    const store = memoryDeviceStore();
    const seen: (string | null | undefined)[] = [];
    const transport: Transport = async (item, { onUploadUrl }) => {
      seen.push(item.kind === 'photo' ? item.uploadUrl : 'vote');
      await onUploadUrl('/api/photo-uploads/0123456789abcdef0123456789abcdef');
      throw new ApiError(0, 'La conexión se cortó.');
    };
    const first = createOutbox({ store, transport });
    first.connect(ANA);
    await first.addPhoto(photo(1));
    await settle();
    expect((await store.items())[0]).toMatchObject({
      state: 'saved',
      attempts: 1,
      uploadUrl: '/api/photo-uploads/0123456789abcdef0123456789abcdef',
    });
    first.stop();

    // The phone restarted: a new page's outbox reads the item and gives the address to the next try.
    const again = createOutbox({ store, transport });
    again.connect(ANA);
    await vi.advanceTimersByTimeAsync(BACKOFF.maxMs);
    expect(seen.slice(0, 2)).toEqual([undefined, '/api/photo-uploads/0123456789abcdef0123456789abcdef']);
    again.stop();
  });

  it('tells the app when an item is removed, so what the server holds of it can go too', async () => {
    const server = fakeServer();
    const removed: OutboxItem[] = [];
    const outbox = createOutbox({
      store: memoryDeviceStore(),
      transport: server.transport,
      onRemove: (i) => removed.push(i),
    });
    const item = await outbox.addPhoto(photo(1));
    await outbox.remove(item.seq);
    expect(removed.map((i) => i.seq)).toEqual([item.seq]);
  });

  it('tries a photo again soon after a cut that moved its upload forward, however many cuts came before', async () => {
    const calls: number[] = [];
    let offset = 0;
    const transport: Transport = async (_item, { onProgress }) => {
      calls.push(Date.now());
      onProgress(offset);
      offset += 10;
      onProgress(offset);
      throw new ApiError(0, 'La conexión se cortó.');
    };
    const outbox = createOutbox({ store: memoryDeviceStore(), transport, random: () => 1 });
    outbox.connect(ANA);
    await outbox.addPhoto(photo(1));
    await vi.advanceTimersByTimeAsync(5 * BACKOFF.firstMs);
    // Every try moved the upload: each waits the first backoff, 2 s, never 4, 8, 16…
    expect(calls.length).toBeGreaterThanOrEqual(5);
    expect(outbox.getSnapshot().items[0]).toMatchObject({ attempts: 1 });
    outbox.stop();
  });

  it('sends a photo the server got damaged again from the phone’s copy, as a fresh upload with the same hash, without asking', async () => {
    const sha256 = 'c'.repeat(64);
    const seen: { uploadUrl: string | null | undefined; sha256?: string; bytes: number[] }[] = [];
    const answers: SendAnswer[] = [
      {
        status: 422,
        body: {
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: 'La foto llegó dañada; se enviará de nuevo',
          code: 'photo-arrived-damaged',
        },
      },
      { status: 201, body: { warning: null } },
    ];
    const transport: Transport = async (item, { onUploadUrl }) => {
      if (item.kind !== 'photo') throw new Error('a photo was expected');
      seen.push({
        uploadUrl: item.uploadUrl,
        sha256: item.file.sha256,
        bytes: item.file.data ? [...new Uint8Array(item.file.data)] : [],
      });
      // Each try's upload gets its own address on the server.
      await onUploadUrl(`/api/photo-uploads/${String(seen.length).padStart(32, '0')}`);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer;
    };
    const rejected: OutboxItem[] = [];
    const outbox = createOutbox({ store: memoryDeviceStore(), transport, random: () => 1 });
    outbox.connect(ANA, { onRejected: (i) => rejected.push(i) });
    const item = await outbox.addPhoto({ ...photo(1), file: { ...photo(1).file, sha256 } });
    expect(item.kind === 'photo' && item.file.sha256).toBe(sha256);
    await settle();

    // Refused as damaged: still waiting on the phone with its bytes and hash, its old upload forgotten.
    expect(outbox.getSnapshot().items[0]).toMatchObject({
      state: 'saved',
      uploadUrl: null,
      lastError: 'La foto llegó dañada; se enviará de nuevo',
      rejection: null,
      file: { sha256 },
    });
    expect(rejected).toEqual([]);
    await vi.advanceTimersByTimeAsync(BACKOFF.firstMs);
    expect(seen).toEqual([
      { uploadUrl: undefined, sha256, bytes: [0xff, 0xd8, 0xff] },
      { uploadUrl: null, sha256, bytes: [0xff, 0xd8, 0xff] },
    ]);
    expect(states(outbox)).toEqual(['1:photo:sent']);
    expect(rejected).toEqual([]);
    outbox.stop();
  });
});
