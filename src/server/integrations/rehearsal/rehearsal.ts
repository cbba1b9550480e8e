// 'Ensayo general' (decision 103): the whole election day played against a deployment through its HTTP
// API only, in Simulacro, measured, and erased. Phones over the field bench's bad link, projectors on the
// live stream, SMS through the signed webhook, an admin reading Campo and Resultados; then the close with
// items still on phones, 'Terminar simulacro', their late arrival, and a check that the deployment is as
// it was.
import { createHmac, randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import sharp from 'sharp';
import { PHOTO_KINDS } from '#shared/platform/constants';
import { type Answer, BudgetSpent, type LinkModel, Measurements, messageOf, Session, sleep } from './rehearsal-http';
import { type Item, type ItemKind, Phone, sha256 } from './rehearsal-phone';

export interface RehearsalOptions {
  /** The deployment's address, e.g. https://comando.example.org */
  url: string;
  /** The Origin its changes must carry: the URL's own unless told. */
  origin?: string;
  phones: number;
  minutes: number;
  projectors: number;
  sms: number;
  readOnly: boolean;
  link: LinkModel;
  /** Signs the admin in on the session given (password and second factor, as the operator types them). */
  signIn: (admin: Session) => Promise<void>;
  /** SMS_WEBHOOK_SIGNING_KEY of the deployment: without it no SMS is sent. */
  smsSigningKey?: string | undefined;
  /** METRICS_TOKEN of the deployment: memory and event-loop delay from /metrics. */
  metricsToken?: string | undefined;
  /** Votes each phone captures (default: one a minute); with it, the day ends once all are captured. */
  itemsPerPhone?: number;
  /** One photo every this many votes (default 2). */
  photoEvery?: number;
  /** Longest side of the ballot photos (default 1600: what phones send, right-sized). */
  photoSide?: number;
  /** First wait before a phone sends again after a cut (default 1 s, doubling). */
  retryBaseMs?: number;
  /** Longest wait for phones to empty their outbox at the close (default 120 s). */
  drainMs?: number;
  /** Field reports' interval (default 30 s). */
  reportEveryMs?: number;
  /** The admin's reading of Campo and Resultados (default 10 s). */
  readEveryMs?: number;
  maxRequests?: number;
  /** Ctrl+C: ends the day at once and goes to the erasure. */
  signal?: AbortSignal;
  out: (line: string) => void;
  /** Live progress (a line that may overwrite the last). */
  progress?: (line: string, final: boolean) => void;
}

export interface Verdict {
  name: string;
  ok: boolean;
  detail: string;
}

export interface PhaseTime {
  name: string;
  ms: number;
}

export interface RehearsalReport {
  url: string;
  startedAt: string;
  endedAt: string;
  options: { phones: number; minutes: number; projectors: number; sms: number; readOnly: boolean; link: LinkModel };
  interrupted: boolean;
  refused: string | null;
  phases: PhaseTime[];
  perMinute: { minute: number; votes: number; photos: number; sms: number }[];
  kinds: { kind: string; count: number; p50: number; p99: number; max: number; errors: number }[];
  errors: { kind: string; count: number }[];
  projector: {
    connections: number;
    events: number;
    reconnects: number;
    p50: number;
    p99: number;
    max: number;
    samples: number;
  };
  counts: {
    votesAccepted: number;
    photosAccepted: number;
    smsApplied: number;
    smsSent: number;
    replayed: number;
    refused: number;
    pendingAtClose: number;
    stored: { votes: number; photos: number } | null;
    erased: { votes: number; photos: number; files: number; filesLeft: number; accounts: number } | null;
    held: number;
    late: { sent: number; accepted: number; refused: Record<string, number> };
    requests: number;
  };
  metrics: { samples: number; maxRssMb: number | null; maxHeapMb: number | null; maxLoopP99Ms: number | null } | null;
  verdicts: Verdict[];
  notes: string[];
}

export class RehearsalRefused extends Error {}

const REASON = 'Ensayo general (npm run cli -- ensayo)';
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const round = (n: number) => Math.round(n * 10) / 10;

/** Ballot photos as phones send them: a JPEG of the paper, grain included, a few different ones. */
async function ballotPhotos(side: number, count = 4): Promise<{ bytes: Uint8Array; sha256: string }[]> {
  const width = side;
  const height = Math.round((side * 3) / 4);
  const photos = [];
  for (let n = 0; n < count; n++) {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `<text x="8%" y="${22 + i * 6}%" font-family="sans-serif" font-size="${Math.round(height / 32)}" fill="#222">` +
        `Candidato ${i + 1} ............ ${(i * 37 + 11 + n) % 500} votos</text>`,
    ).join('');
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        `<rect width="100%" height="100%" fill="#f4efe2"/><text x="50%" y="12%" font-size="${Math.round(height / 14)}" ` +
        `text-anchor="middle" font-family="sans-serif" fill="#1d4ed8">ACTA ENSAYO ${n + 1}</text>${rows}</svg>`,
    );
    const grain = Buffer.alloc(width * height * 3);
    let seed = 17 + n;
    for (let i = 0; i < grain.length; i++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      grain[i] = 118 + (seed % 21);
    }
    const picture = await sharp(svg).removeAlpha().raw().toBuffer();
    for (let i = 0; i < picture.length; i++)
      picture[i] = Math.max(0, Math.min(255, (picture[i] ?? 0) + (grain[i] ?? 128) - 128));
    const bytes = new Uint8Array(
      await sharp(picture, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
    photos.push({ bytes, sha256: sha256(bytes) });
  }
  return photos;
}

/** The admin's view of the deployment that must be the same after the rehearsal. */
async function snapshot(admin: Session) {
  const get = async (path: string) => {
    const a = await admin.call('comprobación', 'GET', path, { unbudgeted: true });
    if (a.status !== 200) throw new Error(`${path}: ${a.status} ${messageOf(a)}`);
    return a.json<Record<string, unknown>>();
  };
  const election = (await get('/api/admin/election')) as {
    phase: string;
    closesAt: string | null;
    graceHours: number;
    received: { votes: number; photos: number };
    lateArrivals: number;
  };
  const { computedAt: _c, ...results } = await get('/api/results');
  const departments = await get('/api/admin/records/departments');
  const users: unknown[] = [];
  for (let page = 1; page <= 400; page++) {
    const p = (await get(`/api/admin/users?page=${page}`)) as { items: Record<string, unknown>[]; total: number };
    for (const { lastLoginAt: _l, ...u } of p.items) users.push(u);
    if (users.length >= p.total || p.items.length === 0) break;
  }
  const field = (await get('/api/field')) as { departments: unknown[]; validators: unknown[] };
  const sms = await admin.call('comprobación', 'GET', '/api/admin/sms/messages', { unbudgeted: true });
  return {
    day: {
      phase: election.phase,
      closesAt: election.closesAt,
      graceHours: election.graceHours,
      received: election.received,
      lateArrivals: election.lateArrivals,
    },
    results,
    departments,
    users,
    field: { departments: field.departments, validators: field.validators.length },
    sms: sms.status === 200 ? sms.text.replace(/"(checkedAt|generatedAt)":"[^"]*"/g, '') : `(${sms.status})`,
  };
}

/** What differs between two snapshots, in words (empty: the same). */
function differences(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const key of Object.keys(before)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) found.push(key);
  }
  return found;
}

/** Reads the Prometheus text the server serves: the figures the report needs. */
export function readMetrics(text: string): { rss?: number; heap?: number; loopP99?: number } {
  const value = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    const n = line ? Number(line.trim().split(/\s+/).at(-1)) : Number.NaN;
    return Number.isFinite(n) ? n : undefined;
  };
  return {
    rss: value('process_resident_memory_bytes'),
    heap: value('nodejs_heap_size_used_bytes'),
    loopP99: value('nodejs_eventloop_lag_p99_seconds'),
  };
}

/** A projector: the live stream, read as the screen reads it; each count of ballots and when it came. */
class Projector {
  readonly seen: { at: number; ballots: number }[] = [];
  events = 0;
  reconnects = 0;
  failures = 0;
  last = -1;
  private stopped = false;
  private controller = new AbortController();

  constructor(
    readonly admin: Session,
    readonly keep: boolean,
  ) {}

  async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const response = await fetch(new URL('/api/results/stream', this.admin.base), {
          headers: { accept: 'text/event-stream', cookie: this.admin.cookieHeader() },
          signal: this.controller.signal,
        });
        if (response.status !== 200 || !response.body) {
          this.failures += 1;
          await response.body?.cancel();
          await sleep(2_000, this.controller.signal);
          continue;
        }
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (!block.includes('event: resultados')) continue;
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            this.events += 1;
            const ballots = (JSON.parse(data) as { ballots: number }).ballots;
            this.last = ballots;
            if (this.keep) this.seen.push({ at: Date.now(), ballots });
          }
        }
      } catch {
        if (this.stopped) return;
        this.failures += 1;
      }
      if (!this.stopped) {
        this.reconnects += 1;
        await sleep(1_000, this.controller.signal);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.controller.abort();
  }
}

/** Signs an admin in through the API: password, then the second factor if the account owes one. */
export async function signInAdmin(
  admin: Session,
  credentials: { email: string; password: string },
  askCode: () => Promise<string>,
): Promise<void> {
  const login = await admin.call('sesión de administración', 'POST', '/api/auth/login', {
    json: credentials,
    unbudgeted: true,
  });
  if (login.status !== 200) throw new RehearsalRefused(`No se pudo entrar: ${messageOf(login)}`);
  const session = login.json<{
    user: { role: string; secondFactor?: string | null; mustChangePassword: boolean } | null;
  }>();
  if (session.user?.mustChangePassword) {
    throw new RehearsalRefused('Esa cuenta debe cambiar su contraseña primero: entra en la web y cámbiala.');
  }
  if (session.user?.secondFactor === 'enrol') {
    throw new RehearsalRefused('Esa cuenta debe configurar su segundo factor primero: entra en la web y configúralo.');
  }
  if (session.user?.secondFactor === 'verify') {
    const code = (await askCode()).trim();
    const verified = await admin.call('sesión de administración', 'POST', '/api/auth/second-factor/verify', {
      json: { code },
      unbudgeted: true,
    });
    if (verified.status !== 200) throw new RehearsalRefused(`Segundo factor rechazado: ${messageOf(verified)}`);
  }
  const check = await admin.call('sesión de administración', 'GET', '/api/auth/session', { unbudgeted: true });
  const role = check.json<{ user: { role: string } | null }>().user?.role;
  if (role !== 'admin') throw new RehearsalRefused('El ensayo lo lanza una cuenta de administración.');
}

export async function runRehearsal(options: RehearsalOptions): Promise<RehearsalReport> {
  const started = Date.now();
  const origin = options.origin ?? new URL(options.url).origin;
  const dayMs = Math.max(1, options.minutes * 60_000);
  const itemsPerPhone = options.itemsPerPhone ?? Math.max(1, Math.round(options.minutes));
  const photoEvery = options.photoEvery ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const drainMs = options.drainMs ?? 120_000;
  const reportEveryMs = options.reportEveryMs ?? 30_000;
  const readEveryMs = options.readEveryMs ?? 10_000;
  const maxRequests =
    options.maxRequests ??
    options.phones * (itemsPerPhone * 60 + 200) + options.projectors * 50 + options.sms * 4 + 20_000;
  const measured = new Measurements(maxRequests);
  const stop = new AbortController();
  // Every phone's waits and requests listen to it.
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();
  const admin = new Session(options.url, origin, measured);
  const phases: PhaseTime[] = [];
  const notes: string[] = [];
  const verdicts: Verdict[] = [];
  let phaseStart = Date.now();
  let phaseName = 'Entrada';
  const phase = (name: string) => {
    phases.push({ name: phaseName, ms: Date.now() - phaseStart });
    phaseName = name;
    phaseStart = Date.now();
    options.out(`— ${name}`);
  };

  const accepted: { at: number; kind: 'vote' | 'photo' | 'sms' }[] = [];
  let replayed = 0;
  let refused = 0;
  const refusals = new Map<string, number>();
  const tally = {
    onAccepted(item: Item) {
      accepted.push({ at: item.answeredAt ?? Date.now(), kind: item.kind === 'vote' ? 'vote' : 'photo' });
      if (item.replayed) replayed += 1;
    },
    onRefused(item: Item) {
      refused += 1;
      const why = `${item.kind === 'vote' ? 'voto' : 'foto'} ${item.status}: ${item.reason ?? ''}`;
      refusals.set(why, (refusals.get(why) ?? 0) + 1);
    },
  };
  let smsSent = 0;
  let smsApplied = 0;
  const phones: Phone[] = [];
  const projectors: Projector[] = [];
  const metrics: { rss?: number; heap?: number; loopP99?: number }[] = [];
  let stored: { votes: number; photos: number } | null = null;
  let erased: RehearsalReport['counts']['erased'] = null;
  let pendingAtClose = 0;
  const late = { sent: 0, accepted: 0, refused: {} as Record<string, number> };
  let refusedWhy: string | null = null;
  let drillStarted = false;
  let before: Awaited<ReturnType<typeof snapshot>> | null = null;
  const totals = () => {
    const votes = accepted.filter((a) => a.kind === 'vote').length;
    const photos = accepted.filter((a) => a.kind === 'photo').length;
    return { votes, photos };
  };
  const progressLine = (name: string, fraction: number, final = false) => {
    const width = 24;
    const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
    const t = totals();
    const errors = [...measured.errors.values()].reduce((a, b) => a + b, 0);
    options.progress?.(
      `${name.padEnd(10)} ▕${'█'.repeat(filled)}${'░'.repeat(width - filled)}▏ ${String(Math.round(fraction * 100)).padStart(3)} % · ` +
        `votos ${t.votes} · fotos ${t.photos} · SMS ${smsApplied}/${smsSent} · proyectores ${projectors.filter((p) => p.last >= 0).length}/${projectors.length} · ` +
        `esperando ${phones.reduce((n, p) => n + p.outbox.length, 0)} · errores ${errors} · solicitudes ${measured.requests}`,
      final,
    );
  };

  const background: Promise<unknown>[] = [];
  try {
    await options.signIn(admin);
    phase('Comprobación inicial');
    before = await snapshot(admin);
    if (!options.readOnly) {
      if (before.day.phase !== 'preparacion') {
        throw new RehearsalRefused(
          `La jornada está en «${before.day.phase}»: el ensayo solo corre en Preparación (o con --solo-lectura).`,
        );
      }
      if (before.day.received.votes > 0 || before.day.received.photos > 0) {
        throw new RehearsalRefused(
          `Ya hay ${before.day.received.votes} votos y ${before.day.received.photos} fotos guardados: el ensayo solo corre sin nada guardado (o con --solo-lectura).`,
        );
      }
    }
    const photos = options.readOnly ? [] : await ballotPhotos(options.photoSide ?? 1600);

    // Projectors and the admin's reading run through the whole day.
    for (let i = 0; i < options.projectors; i++) {
      const p = new Projector(admin, i < 100);
      projectors.push(p);
      background.push(p.run());
    }
    let reading = true;
    background.push(
      (async () => {
        while (reading && !stop.signal.aborted) {
          try {
            await admin.call('Campo (administración)', 'GET', '/api/field');
            await admin.call('Resultados (administración)', 'GET', '/api/results');
            await admin.call('Resultados por municipio', 'GET', '/api/results/breakdown');
            if (options.metricsToken) {
              const m = await fetch(new URL('/metrics', options.url), {
                headers: { authorization: `Bearer ${options.metricsToken}` },
              });
              if (m.status === 200) metrics.push(readMetrics(await m.text()));
              else measured.error(`métricas: ${m.status}`);
            }
          } catch (error) {
            if (error instanceof BudgetSpent) break;
          }
          await sleep(readEveryMs, stop.signal);
        }
      })(),
    );

    if (options.readOnly) {
      phase('Solo lectura');
      const until = Date.now() + dayMs;
      while (Date.now() < until && !stop.signal.aborted) {
        progressLine('Lectura', 1 - (until - Date.now()) / dayMs);
        await sleep(Math.min(1_000, until - Date.now()), stop.signal);
      }
      reading = false;
      progressLine('Lectura', 1, true);
    } else {
      phase('Simulacro');
      const drill = await admin.call('jornada', 'PUT', '/api/admin/election/phase', {
        json: { phase: 'simulacro', reason: REASON },
        unbudgeted: true,
      });
      if (drill.status !== 200) throw new RehearsalRefused(`No se pudo empezar el simulacro: ${messageOf(drill)}`);
      drillStarted = true;

      // Accounts on the departments with the most records, as many phones as each can keep busy.
      const list = (
        await admin.call('comprobación', 'GET', '/api/admin/records/departments', { unbudgeted: true })
      ).json<{ items: { slug: string; total: number }[] }>().items;
      const smsWanted = options.sms > 0 && options.smsSigningKey ? Math.min(options.sms, options.phones) : 0;
      if (options.sms > 0 && !options.smsSigningKey) {
        notes.push('SMS: sin SMS_WEBHOOK_SIGNING_KEY no se envían (el webhook exige la firma).');
      }
      // Each phone's share of records: its votes, the one it keeps at the close, and its SMS.
      const needed = itemsPerPhone + 2 + (smsWanted > 0 ? Math.ceil(options.sms / smsWanted) : 0);
      const departments = list.filter((d) => d.total >= needed).sort((a, b) => b.total - a.total);
      if (departments.length === 0)
        throw new RehearsalRefused('No hay municipios con trámites suficientes para el ensayo.');
      const room = new Map(departments.map((d) => [d.slug, Math.floor(d.total / needed)]));
      const perDepartment = new Map<string, number>();
      const chosen: string[] = [];
      // Round-robin over the departments while each has records for one more phone.
      while (chosen.length < options.phones) {
        let added = false;
        for (const d of departments) {
          if (chosen.length >= options.phones) break;
          const used = perDepartment.get(d.slug) ?? 0;
          if (used >= (room.get(d.slug) ?? 0)) continue;
          perDepartment.set(d.slug, used + 1);
          chosen.push(d.slug);
          added = true;
        }
        if (!added) break;
      }
      if (chosen.length < options.phones)
        notes.push(`Solo hay trámites para ${chosen.length} teléfonos de ${options.phones}.`);
      phase('Cuentas de ensayo');
      const made = await admin.call('cuentas de ensayo', 'POST', '/api/admin/election/drill/accounts', {
        json: { count: chosen.length, departments: chosen, smsPhones: Math.min(smsWanted, chosen.length) },
        unbudgeted: true,
        timeoutMs: 300_000,
      });
      if (made.status !== 200) throw new Error(`Cuentas de ensayo: ${made.status} ${messageOf(made)}`);
      const accounts = made.json<{
        password: string;
        accounts: { email: string; slug: string; smsPhone: string | null }[];
      }>();

      // Each phone reads its department's list and keeps its own share (a record is only ever one phone's).
      const seen = new Map<string, number>();
      const shareOf = new Map<Phone, number>();
      for (const account of accounts.accounts) {
        const index = seen.get(account.slug) ?? 0;
        seen.set(account.slug, index + 1);
        const session = new Session(options.url, origin, measured, options.link, stop.signal);
        const phone = new Phone(session, account.email, account.slug, [], tally, retryBaseMs, account.smsPhone);
        shareOf.set(phone, index);
        phones.push(phone);
      }
      phase('Entrada de teléfonos');
      let signedIn = 0;
      await Promise.all(
        phones.map(async (p) => {
          await p.signIn(accounts.password);
          await p.load(shareOf.get(p) ?? 0, needed);
          for (let i = 0; i < 5 && !(await p.report()); i++) await sleep(retryBaseMs, stop.signal);
          signedIn += 1;
          progressLine('Entrada', signedIn / phones.length);
        }),
      );
      progressLine('Entrada', 1, true);

      // The day.
      phase('Jornada');
      const dayStart = Date.now();
      const dayEnd = dayStart + dayMs;
      const gap = options.itemsPerPhone !== undefined ? 0 : dayMs / itemsPerPhone;
      let capturing = true;
      const phoneLoops = phones.map(async (p, n) => {
        let nextCapture = dayStart + Math.random() * Math.min(gap, 5_000);
        let nextReport = Date.now() + reportEveryMs * Math.random();
        let failures = 0;
        while (!stop.signal.aborted) {
          const now = Date.now();
          if (capturing && p.captured < itemsPerPhone && now >= nextCapture) {
            const withPhoto = photoEvery > 0 && p.captured % photoEvery === 0 && photos.length > 0;
            const photo = photos[(n + p.captured) % photos.length];
            const kind = PHOTO_KINDS[(n + p.captured) % PHOTO_KINDS.length] as ItemKind;
            if (!p.capture(withPhoto && photo ? { ...photo, kind } : null)) p.captured = itemsPerPhone;
            nextCapture = dayStart + p.captured * gap * (0.8 + Math.random() * 0.4);
          }
          if (now >= nextReport) {
            await p.report();
            nextReport = Date.now() + reportEveryMs;
          }
          if (p.outbox.length > 0) {
            try {
              if (await p.sendNext()) failures = 0;
              else {
                failures += 1;
                await sleep(Math.min(retryBaseMs * 2 ** Math.min(failures - 1, 5), 30_000), stop.signal);
              }
            } catch (error) {
              if (error instanceof BudgetSpent) return;
              throw error;
            }
            continue;
          }
          if (!capturing) return;
          const next = p.captured < itemsPerPhone ? Math.min(nextCapture, nextReport) : nextReport;
          await sleep(Math.max(20, Math.min(1_000, next - Date.now())), stop.signal);
        }
      });
      const phoneDay = Promise.allSettled(phoneLoops);

      // SMS through the signed webhook, spread over the day, each from a drill account's number.
      const smsPhones = phones.filter((p) => p.smsPhone);
      const smsDay = (async () => {
        if (smsPhones.length === 0 || !options.smsSigningKey) return;
        const every = options.itemsPerPhone !== undefined ? 0 : dayMs / options.sms;
        for (let i = 0; i < options.sms && !stop.signal.aborted && (every === 0 || Date.now() < dayEnd); i++) {
          const phone = smsPhones[i % smsPhones.length] as Phone;
          const record = phone.records.pop();
          if (!record) continue;
          const body = JSON.stringify({
            event: 'sms:received',
            id: randomUUID(),
            webhookId: 'ensayo',
            deviceId: 'ensayo',
            payload: {
              messageId: randomUUID(),
              message: `V ${record.code} ${phone.candidates.slice(0, 1).join(' ') || '0'}`,
              phoneNumber: phone.smsPhone,
              simNumber: 1,
              receivedAt: new Date().toISOString(),
            },
          });
          const timestamp = String(Math.floor(Date.now() / 1000));
          const signature = createHmac('sha256', options.smsSigningKey)
            .update(body + timestamp)
            .digest('hex');
          smsSent += 1;
          try {
            const answer = await admin.call('SMS (webhook)', 'POST', '/api/sms/webhook', {
              body: new TextEncoder().encode(body),
              headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-timestamp': timestamp },
            });
            const outcome = answer.status === 200 ? answer.json<{ outcome: string }>().outcome : `${answer.status}`;
            if (outcome === 'aplicado') {
              smsApplied += 1;
              accepted.push({ at: Date.now(), kind: 'sms' });
            } else {
              measured.error(`SMS: ${outcome} ${answer.status === 200 ? '' : messageOf(answer)}`.trim());
            }
          } catch (error) {
            if (error instanceof BudgetSpent) return;
          }
          // On the day's clock: a slow answer does not push the next SMS (nor the day's end) later.
          await sleep(dayStart + (i + 1) * every - Date.now(), stop.signal);
        }
      })();

      while (!stop.signal.aborted) {
        const now = Date.now();
        const allSent =
          options.itemsPerPhone !== undefined &&
          phones.every((p) => p.captured >= itemsPerPhone && p.outbox.length === 0) &&
          smsSent >= Math.min(options.sms, smsPhones.length > 0 ? options.sms : 0);
        if (now >= dayEnd || allSent) break;
        if (measured.requests >= maxRequests) {
          notes.push('El ensayo llegó a su límite de solicitudes y cerró antes.');
          break;
        }
        progressLine('Jornada', (now - dayStart) / dayMs);
        await sleep(1_000, stop.signal);
      }
      await smsDay;
      progressLine('Jornada', 1, true);

      // The close: each phone captures one more vote it keeps (no coverage) and says so in its report;
      // the rest of the outbox drains, bounded.
      phase('Cierre');
      capturing = false;
      const interrupted = stop.signal.aborted;
      if (!interrupted) {
        for (const p of phones) p.capture(null, p.held);
        const drainUntil = Date.now() + drainMs;
        while (Date.now() < drainUntil && phones.some((p) => p.outbox.length > 0) && !stop.signal.aborted) {
          progressLine('Cierre', 1 - (drainUntil - Date.now()) / drainMs);
          await sleep(500, stop.signal);
        }
      }
      stop.abort();
      await phoneDay;
      progressLine('Cierre', 1, true);
      pendingAtClose = phones.reduce((n, p) => n + p.outbox.length, 0);
      if (!interrupted) {
        // Reports over a clean link now: what still waits is what Campo must show.
        for (const p of phones) {
          const cut = p.session;
          p.session = cut.copy(null);
          for (let i = 0; i < 3 && !(await p.report()); i++) await sleep(200);
          p.session = cut;
        }
        const field = (await admin.call('Campo (administración)', 'GET', '/api/field', { unbudgeted: true })).json<{
          departments: { waiting: number }[];
        }>();
        const waiting = field.departments.reduce((n, d) => n + d.waiting, 0);
        const held = phones.reduce((n, p) => n + p.held.length + p.outbox.length, 0);
        verdicts.push({
          name: 'Campo ve lo que esperan los teléfonos',
          ok: waiting === held,
          detail: `Campo: ${waiting} esperando; los teléfonos: ${held}`,
        });
      }
      reading = false;
    }
  } catch (error) {
    if (error instanceof RehearsalRefused) refusedWhy = error.message;
    else {
      notes.push(`Se detuvo por un error: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }

  // From here on, whatever happened: the drill is erased and the deployment checked.
  stop.abort();
  for (const p of projectors) p.stop();
  const projectorLast = projectors.map((p) => p.last);
  await Promise.allSettled(background);
  if (drillStarted) {
    phase('Terminar simulacro');
    try {
      const day = (await admin.call('jornada', 'GET', '/api/admin/election', { unbudgeted: true })).json<{
        drill: { votes: number; photos: number } | null;
        received: { votes: number; photos: number };
      }>();
      stored = day.drill ?? day.received;
      // Resultados and the projectors count what was stored.
      const results = (await admin.call('comprobación', 'GET', '/api/results', { unbudgeted: true })).json<{
        ballots: number;
      }>();
      verdicts.push({
        name: 'Resultados cuentan lo guardado',
        ok: results.ballots === stored.votes,
        detail: `Resultados: ${results.ballots} boletas; guardados: ${stored.votes} votos`,
      });
      if (projectors.length > 0 && refusedWhy === null) {
        const behind = projectorLast.filter((b) => b !== stored?.votes).length;
        verdicts.push({
          name: 'Los proyectores muestran lo guardado',
          ok: behind === 0,
          detail:
            behind === 0
              ? `${projectors.length} de ${projectors.length} al día`
              : `${behind} de ${projectors.length} no llegaron a ${stored.votes}`,
        });
      }
      let ended: Answer | null = null;
      for (let attempt = 0; attempt < 5; attempt++) {
        ended = await admin.call('jornada', 'POST', '/api/admin/election/drill/end', {
          json: { votes: stored.votes, photos: stored.photos, reason: REASON },
          unbudgeted: true,
          timeoutMs: 600_000,
        });
        if (ended.status !== 409) break;
        // Something still arrived: the counts it asks to confirm are in its answer.
        const drillNow = ended.json<{ drill?: { votes: number; photos: number } }>().drill;
        if (drillNow) stored = drillNow;
      }
      if (ended?.status === 200) {
        const body = ended.json<{
          votes: number;
          photos: number;
          filesDeleted: number;
          files?: number;
          accountsRemoved?: number;
        }>();
        erased = {
          votes: body.votes,
          photos: body.photos,
          files: body.filesDeleted,
          filesLeft: (body.files ?? body.filesDeleted) - body.filesDeleted,
          accounts: body.accountsRemoved ?? 0,
        };
        options.out(`  ${messageOf(ended)}`);
      } else {
        notes.push(
          `«Terminar simulacro» respondió ${ended?.status}: ${ended ? messageOf(ended) : ''}. Termínalo en Jornada.`,
        );
      }
    } catch (error) {
      notes.push(
        `No se pudo terminar el simulacro: ${error instanceof Error ? error.message : String(error)}. Termínalo en Jornada.`,
      );
    }

    // Their late arrival: what phones kept reaches a server that ended the drill (and their accounts).
    if (erased) {
      phase('Llegadas tardías');
      for (const p of phones) {
        p.session = p.session.copy(options.link);
        p.tally = { onAccepted: () => {}, onRefused: () => {} };
      }
      // Each phone sends what it kept, one item after another; the phones at once.
      await Promise.all(
        phones.map(async (p) => {
          for (const item of [...p.held, ...p.outbox]) {
            item.state = 'waiting';
            late.sent += 1;
            const answered = await p.sendLate(item).catch(() => item);
            if (answered.state === 'accepted') late.accepted += 1;
            else if (answered.state === 'refused') {
              const key = String(answered.status);
              late.refused[key] = (late.refused[key] ?? 0) + 1;
            }
          }
        }),
      );
    }
  }

  if (before && refusedWhy === null) {
    phase('Comprobación final');
    try {
      const after = await snapshot(admin);
      const changed = differences(before, after);
      verdicts.push({
        name: 'El despliegue queda como antes',
        ok: changed.length === 0,
        detail:
          changed.length === 0
            ? 'fase, recibidos, resultados, trámites, personas, Campo y SMS iguales'
            : `cambió: ${changed.join(', ')}`,
      });
      const chain = await admin.call('cadena de auditoría', 'POST', '/api/admin/evidence/chain/check', {
        unbudgeted: true,
        timeoutMs: 600_000,
      });
      const check =
        chain.status === 200
          ? chain.json<{ lastCheck: { ok: boolean; problems: number; firstProblems: string[] } | null }>().lastCheck
          : null;
      verdicts.push({
        name: 'La cadena de auditoría verifica (audit:verify)',
        ok: check?.ok === true,
        detail: check
          ? check.ok
            ? 'sin problemas'
            : `${check.problems} problemas: ${check.firstProblems.slice(0, 2).join('; ')}`
          : `respondió ${chain.status}`,
      });
    } catch (error) {
      verdicts.push({
        name: 'El despliegue queda como antes',
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }
  phase('Fin');

  const t = totals();
  if (!options.readOnly && refusedWhy === null && drillStarted) {
    const votesExpected = t.votes + smsApplied;
    if (stored) {
      const lostVotes = Math.max(0, votesExpected - stored.votes);
      const lostPhotos = Math.max(0, t.photos - stored.photos);
      // An item still waiting at the close may have reached the server without its answer reaching the phone.
      const extraVotes = Math.max(0, stored.votes - votesExpected - pendingAtClose);
      const extraPhotos = Math.max(0, stored.photos - t.photos - pendingAtClose);
      verdicts.unshift(
        {
          name: 'Nada perdido',
          ok: lostVotes === 0 && lostPhotos === 0,
          detail: `aceptados ${votesExpected} votos y ${t.photos} fotos; guardados ${stored.votes} y ${stored.photos}`,
        },
        {
          name: 'Nada doble',
          ok: extraVotes === 0 && extraPhotos === 0,
          detail: `de más: ${extraVotes} votos, ${extraPhotos} fotos (${replayed} reenvíos tras un corte respondidos con la misma respuesta)`,
        },
      );
    }
    if (erased) {
      verdicts.push({
        name: '«Terminar simulacro» lo borra todo',
        ok:
          erased.votes === stored?.votes &&
          erased.photos === stored?.photos &&
          erased.filesLeft === 0 &&
          (erased.photos === 0 || erased.files > 0) &&
          erased.accounts === phones.length,
        detail: `${erased.votes} votos, ${erased.photos} fotos, ${erased.files} archivos (${erased.filesLeft} quedaron), ${erased.accounts} cuentas de ensayo`,
      });
      verdicts.push({
        name: 'Llegadas tardías rechazadas como se espera',
        ok: late.accepted === 0 && Object.values(late.refused).reduce((a, b) => a + b, 0) === late.sent,
        detail: `${late.sent} enviadas tras el fin, ${late.accepted} aceptadas; rechazos: ${
          Object.entries(late.refused)
            .map(([s, n]) => `${n} × ${s}`)
            .join(', ') || 'ninguno'
        } (un simulacro no tiene cierre: nada suyo llega tarde)`,
      });
    }
  }
  const serverErrors = measured.samples.filter((s) => s.status >= 500).length;
  if (refusedWhy === null) {
    verdicts.push({
      name: 'Ningún error del servidor (5xx)',
      ok: serverErrors === 0,
      detail: `${serverErrors} respuestas 5xx de ${measured.requests} solicitudes`,
    });
  }

  // Figures.
  const byKind = new Map<string, number[]>();
  const errorsByKind = new Map<string, number>();
  for (const s of measured.samples) {
    if (s.status > 0) {
      const list = byKind.get(s.kind) ?? [];
      list.push(s.ms);
      byKind.set(s.kind, list);
    }
    if (s.status === 0 || s.status >= 500) errorsByKind.set(s.kind, (errorsByKind.get(s.kind) ?? 0) + 1);
  }
  const kinds = [...byKind].map(([kind, times]) => {
    const sorted = times.sort((a, b) => a - b);
    return {
      kind,
      count: sorted.length,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? 0),
      errors: errorsByKind.get(kind) ?? 0,
    };
  });
  const minutes = new Map<number, { votes: number; photos: number; sms: number }>();
  for (const a of accepted) {
    const m = Math.floor((a.at - started) / 60_000);
    const row = minutes.get(m) ?? { votes: 0, photos: 0, sms: 0 };
    if (a.kind === 'vote') row.votes += 1;
    else if (a.kind === 'photo') row.photos += 1;
    else row.sms += 1;
    minutes.set(m, row);
  }
  const lastMinute = Math.max(-1, ...minutes.keys());
  const perMinute = Array.from({ length: lastMinute + 1 }, (_, m) => ({
    minute: m,
    ...(minutes.get(m) ?? { votes: 0, photos: 0, sms: 0 }),
  }));

  // Vote to projector: the k-th vote answered is on a screen once it shows k ballots or more.
  const voteTimes = accepted
    .filter((a) => a.kind !== 'photo')
    .map((a) => a.at)
    .sort((a, b) => a - b);
  const latencies: number[] = [];
  for (const p of projectors.filter((x) => x.seen.length > 0)) {
    let e = 0;
    for (let k = 0; k < voteTimes.length; k++) {
      while (e < p.seen.length && (p.seen[e]?.ballots ?? 0) < k + 1) e++;
      const shown = p.seen[e];
      if (!shown) break;
      latencies.push(Math.max(0, shown.at - (voteTimes[k] ?? shown.at)));
    }
  }
  latencies.sort((a, b) => a - b);

  for (const [why, n] of refusals) measured.errors.set(`rechazo: ${why}`, n);
  const rss = metrics.map((m) => m.rss).filter((n): n is number => n !== undefined);
  const heap = metrics.map((m) => m.heap).filter((n): n is number => n !== undefined);
  const loop = metrics.map((m) => m.loopP99).filter((n): n is number => n !== undefined);
  return {
    url: options.url,
    startedAt: new Date(started).toISOString(),
    endedAt: new Date().toISOString(),
    options: {
      phones: options.phones,
      minutes: options.minutes,
      projectors: options.projectors,
      sms: options.sms,
      readOnly: options.readOnly,
      link: options.link,
    },
    interrupted: options.signal?.aborted === true,
    refused: refusedWhy,
    phases,
    perMinute,
    kinds,
    errors: [...measured.errors].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count),
    projector: {
      connections: projectors.length,
      events: projectors.reduce((n, p) => n + p.events, 0),
      reconnects: projectors.reduce((n, p) => n + p.reconnects, 0),
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? 0),
      samples: latencies.length,
    },
    counts: {
      votesAccepted: t.votes,
      photosAccepted: t.photos,
      smsApplied,
      smsSent,
      replayed,
      refused,
      pendingAtClose,
      stored,
      erased,
      held: phones.reduce((n, p) => n + p.held.length, 0),
      late,
      requests: measured.requests,
    },
    metrics:
      metrics.length > 0
        ? {
            samples: metrics.length,
            maxRssMb: rss.length ? round(Math.max(...rss) / 1048576) : null,
            maxHeapMb: heap.length ? round(Math.max(...heap) / 1048576) : null,
            maxLoopP99Ms: loop.length ? round(Math.max(...loop) * 1000) : null,
          }
        : null,
    verdicts,
    notes,
  };
}
