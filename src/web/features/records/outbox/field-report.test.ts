import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DeviceReport, FIELD_REPORT_MAX_ITEMS } from '#shared/features/field/field';
import { ApiError } from '#web/platform/lib/api-client';
import { memoryDeviceStore } from '../device/device-store';
import { buildReport, createFieldReporter, FIELD_REPORT } from './field-report';
import { createOutbox, type Transport } from './outbox';

const ANA = 'ana@example.org';
const DEVICE = '0b7e7c9e-2d1f-4c55-9a51-6f3f5b0c9d11';
const START = new Date('2026-12-06T14:00:00Z');
const photo = (recordId: number, slug = 'cabimas', owner = ANA) => ({
  owner,
  slug,
  recordId,
  recordName: `Persona ${recordId}`,
  photoKind: 'gobernador' as const,
  file: {
    name: 'IMG_1.JPG',
    type: 'image/jpeg',
    data: new Uint8Array([0xff, 0xd8, 0xff]).buffer,
    sha256: 'ab'.repeat(32),
  },
});

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => vi.useRealTimers());

/** An outbox whose sends the test decides, and a reporter whose reports it collects. */
function setup(options: { online?: () => boolean; transport?: Transport } = {}) {
  const reports: DeviceReport[] = [];
  const hanging: Transport = () => new Promise(() => {});
  let reporter: ReturnType<typeof createFieldReporter> | undefined;
  const outbox = createOutbox({
    store: memoryDeviceStore(),
    transport: options.transport ?? hanging,
    onAttempt: (item, outcome) => reporter?.attempted(item, outcome),
  });
  reporter = createFieldReporter({
    outbox,
    deviceId: DEVICE,
    isOnline: options.online,
    send: async (report) => {
      reports.push(report);
      return undefined;
    },
  });
  return { outbox, reporter, reports };
}

describe('field report', () => {
  it('names, shortly after a change, each of the signed-in person’s items waiting: key, department, record, slot, since when, what was captured', async () => {
    const { outbox, reports } = setup();
    outbox.connect(ANA);
    await outbox.addPhoto(photo(1));
    await vi.advanceTimersByTimeAsync(60_000);
    await outbox.addVote({ owner: ANA, slug: 'lagunillas', recordId: 2, recordName: 'Persona 2', candidates: ['FA'] });
    // Someone else's item on the same phone is not Ana's to report.
    await outbox.addPhoto(photo(3, 'cabimas', 'beto@example.org'));
    reports.length = 0;
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.settleMs);
    const keys = outbox
      .getSnapshot()
      .items.filter((i) => i.owner === ANA)
      .map((i) => i.key);
    expect(reports).toEqual([
      {
        deviceId: DEVICE,
        deviceNow: new Date(START.getTime() + 60_000 + FIELD_REPORT.settleMs).toISOString(),
        lastSuccessAt: null,
        lastError: null,
        items: [
          {
            key: keys[0],
            slug: 'cabimas',
            recordId: 1,
            kind: 'gobernador',
            savedAt: START.toISOString(),
            fingerprint: 'ab'.repeat(32),
          },
          {
            key: keys[1],
            slug: 'lagunillas',
            recordId: 2,
            kind: 'vote',
            savedAt: new Date(START.getTime() + 60_000).toISOString(),
            fingerprint: 'vote:FA',
          },
        ],
      },
    ]);
  });

  it('names at most the oldest FIELD_REPORT_MAX_ITEMS items', async () => {
    const { outbox, reports } = setup();
    outbox.connect(ANA);
    for (let i = 0; i < FIELD_REPORT_MAX_ITEMS + 3; i++) {
      await outbox.addVote({
        owner: ANA,
        slug: 'cabimas',
        recordId: i + 1,
        recordName: `Persona ${i}`,
        candidates: [],
      });
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.settleMs);
    const items = reports.at(-1)?.items ?? [];
    expect(items).toHaveLength(FIELD_REPORT_MAX_ITEMS);
    expect(items[0]).toMatchObject({ recordId: 1, savedAt: START.toISOString() });
    expect(items.at(-1)).toMatchObject({ recordId: FIELD_REPORT_MAX_ITEMS });
  });

  it('keeps the last error and the last success of the sends, and reports them', async () => {
    let answer: 'fail' | 'ok' = 'fail';
    const { outbox, reports } = setup({
      transport: async () => {
        if (answer === 'fail') throw new ApiError(0, 'No hay conexión con el servidor.');
        return { status: 201, body: {} };
      },
    });
    outbox.connect(ANA);
    await outbox.addPhoto(photo(1));
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.settleMs);
    expect(reports.at(-1)).toMatchObject({
      items: [{ recordId: 1, kind: 'gobernador' }],
      // The last of the tries so far (the outbox retries after a backoff).
      lastError: { message: 'No hay conexión con el servidor.', at: expect.any(String) },
      lastSuccessAt: null,
    });
    answer = 'ok';
    await outbox.online();
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.settleMs);
    expect(reports.at(-1)).toMatchObject({ items: [], lastSuccessAt: expect.any(String) });
    expect(reports.at(-1)?.lastError?.message).toBe('No hay conexión con el servidor.');
  });

  it('reports every minute while the page is open, and nothing while offline or signed out', async () => {
    let online = true;
    const { outbox, reports, reporter } = setup({ online: () => online });
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.heartbeatMs * 2);
    expect(reports).toEqual([]);
    outbox.connect(ANA);
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.settleMs);
    expect(reports).toHaveLength(1);
    // Nothing changed: no report until the next heartbeat, which says the phone is still there.
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.heartbeatMs - FIELD_REPORT.settleMs - 1);
    expect(reports).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reports).toHaveLength(2);
    online = false;
    await outbox.addPhoto(photo(1));
    await vi.advanceTimersByTimeAsync(FIELD_REPORT.heartbeatMs);
    expect(reports).toHaveLength(2);
    online = true;
    await reporter.reportNow();
    expect(reports.at(-1)?.items).toHaveLength(1);
    reporter.stop();
  });
});

describe('field report after a restored server (decision 135)', () => {
  it('says the epoch the phone checked against, what it sent again and what of that still waits', () => {
    const base = {
      owner: ANA,
      slug: 'cabimas',
      recordName: 'Persona',
      candidates: ['FA'],
      kind: 'vote' as const,
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      rejection: null,
      createdAt: START.getTime(),
      sentAt: null,
    };
    const items = [
      {
        ...base,
        seq: 1,
        key: '0193f1a0-0000-7000-8000-000000000001',
        recordId: 1,
        state: 'sent' as const,
        resent: true,
      },
      {
        ...base,
        seq: 2,
        key: '0193f1a0-0000-7000-8000-000000000002',
        recordId: 2,
        state: 'saved' as const,
        resent: true,
      },
      { ...base, seq: 3, key: '0193f1a0-0000-7000-8000-000000000003', recordId: 3, state: 'sent' as const },
      // Another person's, on a shared phone: not Ana's to count.
      {
        ...base,
        seq: 4,
        key: '0193f1a0-0000-7000-8000-000000000004',
        recordId: 4,
        state: 'saved' as const,
        resent: true,
        owner: 'beto@example.org',
      },
    ];
    const history = { lastSuccessAt: null, lastError: null };
    expect(buildReport(items, ANA, history, DEVICE, START.getTime(), 2).recovery).toEqual({
      epoch: 2,
      resent: 1,
      fromBefore: 1,
    });
    expect(buildReport(items, ANA, history, DEVICE, START.getTime())).not.toHaveProperty('recovery');
  });
});
