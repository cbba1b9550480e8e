import type { Kysely } from 'kysely';
import { currentEra, readElection, rememberReportedKeys } from '#server/core/election/election';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { Conflict, TooManyRequests } from '#server/platform/http/errors';
import { currentEpoch } from '#server/platform/replica/epoch';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import {
  type DeviceReport,
  type DeviceReportAnswer,
  FIELD_DEVICES_PER_PERSON,
  FIELD_IDLE_MINUTES,
  FIELD_REPORTS_PER_MINUTE,
  FIELD_STUCK_MINUTES,
  type FieldOverview,
  type FieldPace,
  type FieldValidator,
  type FieldView,
  fieldMessages,
} from '#shared/features/field/field';
import { dateInTimeZone } from '#shared/platform/format';
import { createFieldRepository, type DevicesRow, type WaitingRow } from './field.repository';

const MINUTE_MS = 60_000;
/** A phone's clock is trusted within this much of the server's; beyond it, its times are shifted. */
const CLOCK_TOLERANCE_MS = 2 * MINUTE_MS;

type Department = { id: number; slug: string; title: string };

/** One validator's line for one department: what their phones say waits there, and the phones themselves. */
function validatorLine(
  email: string,
  waiting: WaitingRow | undefined,
  devices: DevicesRow | undefined,
  stuckBefore: string,
  closed = false,
  epoch: number | null = null,
): FieldValidator {
  const count = Number(waiting?.waiting ?? 0);
  const oldest = count > 0 ? (waiting?.oldest ?? null) : null;
  return {
    email,
    lastSeenAt: devices?.last_seen_at ?? null,
    waiting: count,
    oldestWaitingAt: oldest,
    lastSuccessAt: devices?.last_success_at ?? null,
    lastError:
      devices?.last_error && devices.last_error_at ? { message: devices.last_error, at: devices.last_error_at } : null,
    stuck: oldest !== null && oldest <= stuckBefore,
    devices: Number(devices?.devices ?? 0),
    // Only after the close: what the server heard of before it and will still take.
    ...(closed ? { heardBeforeClose: Number(waiting?.before_close ?? 0) } : {}),
    // Only once the database was restored from a copy (decision 135): who has sent again what it lacked.
    ...(epoch !== null && epoch > 1
      ? {
          recovery: {
            resent: Number(devices?.resent ?? 0),
            fromBefore: Number(devices?.from_before ?? 0),
            checked:
              devices !== undefined && Number(devices.unchecked ?? 0) === 0 && (devices.checked_epoch ?? 0) >= epoch,
          },
        }
      : {}),
  };
}

/** Those stuck first, then those with most waiting; then by address. */
const byUrgency = (a: FieldValidator, b: FieldValidator) =>
  Number(b.stuck) - Number(a.stuck) || b.waiting - a.waiting || a.email.localeCompare(b.email);

/**
 * Field reports and the coordinators' view of them (docs/decisions/048, 060): each signed-in phone says
 * which of its person's items wait on it; the database keeps one bounded row per person and phone and
 * sums what waits, leaving out what the server has received since.
 */
export function createFieldService(db: Kysely<Database>, clock: () => Date) {
  const repo = createFieldRepository(db);
  const stuckBefore = (now: Date) => new Date(now.getTime() - FIELD_STUCK_MINUTES * MINUTE_MS).toISOString();

  /** 429 once the person's reports of the current minute are used up, with the seconds left of it. */
  const refuseOverLimit = (count: number, windowStartedAt: string, now: Date) => {
    if (count < FIELD_REPORTS_PER_MINUTE) return;
    const windowEnds = new Date(windowStartedAt).getTime() + MINUTE_MS;
    if (windowEnds <= now.getTime()) return;
    throw TooManyRequests(fieldMessages.tooManyReports, (windowEnds - now.getTime()) / 1000);
  };

  return {
    /**
     * Before a report's body is read: a person whose reports of this minute are used up is refused at
     * once, so that a flood costs a lookup, not the reading and checking of every body.
     */
    async refuseIfOverLimit(user: SessionUser): Promise<void> {
      const window = await repo.reportsWindow(user.email);
      if (window) refuseOverLimit(window.reports_in_window, window.window_started_at, clock());
    },

    /**
     * Keeps a phone's report: its row (only for the session that wrote it, or after that session ended)
     * and its waiting items, within the person's reports a minute and phones.
     */
    async receiveReport(user: SessionUser, sessionHash: string, report: DeviceReport): Promise<DeviceReportAnswer> {
      const now = clock();
      const nowIso = now.toISOString();
      // The phone's times on the server's clock: a phone set to the wrong hour must not look stuck (or fine).
      const skew = now.getTime() - new Date(report.deviceNow).getTime();
      const shift = Math.abs(skew) > CLOCK_TOLERANCE_MS ? skew : 0;
      const onServerClock = (at: string) =>
        new Date(Math.min(now.getTime(), new Date(at).getTime() + shift)).toISOString();
      const orNull = (at: string | null) => (at === null ? null : onServerClock(at));
      // Only the person's own: records of the municipalities and parishes they validate (decision 094).
      // Any other item is left out, of what waits and of what the server heard of.
      const departments = new Map(
        (await repo.municipalities(user.role === 'admin' ? null : user.email)).map((d) => [d.slug, d.id]),
      );
      const recordDepartments = await repo.departmentsOfRecords(report.items.map((i) => i.recordId));
      const own = report.items.filter((i) => {
        const departmentId = departments.get(i.slug);
        return departmentId !== undefined && recordDepartments.get(i.recordId) === departmentId;
      });
      const items = own.map((i) => ({
        user_email: user.email,
        device_id: report.deviceId,
        item_key: i.key,
        department_id: departments.get(i.slug) ?? 0,
        record_id: i.recordId,
        kind: i.kind,
        waiting_since: onServerClock(i.savedAt),
      }));
      // A report writes no audit row (it is the phone's bookkeeping, not a person's decision); its writes
      // still run as one change.
      await runChange(db, async ({ trx }) => {
        const windowStartedBefore = new Date(now.getTime() - MINUTE_MS).toISOString();
        // Counted again here, atomically: reports sent at once all passed the early check.
        const counted = await repo.countReport(trx, user.email, nowIso, windowStartedBefore);
        refuseOverLimit(counted.count - 1, counted.windowStartedAt, now);
        const saved = await repo.saveDevice(
          trx,
          {
            user_email: user.email,
            device_id: report.deviceId,
            session_hash: sessionHash,
            reported_at: nowIso,
            last_success_at: orNull(report.lastSuccessAt),
            last_error: report.lastError?.message ?? null,
            last_error_at: orNull(report.lastError?.at ?? null),
            checked_epoch: report.recovery?.epoch ?? null,
            resent_items: report.recovery?.resent ?? 0,
            held_from_before: report.recovery?.fromBefore ?? 0,
          },
          nowIso,
        );
        if (!saved) throw Conflict(fieldMessages.deviceTaken);
        await repo.replaceItems(trx, user.email, report.deviceId, items);
        // Heard of now: after the close, what a phone named before it is still taken (decision 078).
        // Each key bound to what the phone captured under it (decision 094).
        await rememberReportedKeys(trx, own, user.email, now, () => repo.heldKeys(trx, user.email));
        await repo.trimDevices(trx, user.email, FIELD_DEVICES_PER_PERSON);
      });
      // The day's era, for the phone to stamp on what it captures next (decision 094).
      return { receivedAt: nowIso, era: await currentEra(db, now) };
    },

    /** One department: every member of its list, with what waits on their phones for it. */
    async departmentView(department: Department, members: string[]): Promise<FieldView> {
      const now = clock();
      const { closedAt } = await readElection(db, now);
      const [waiting, devices, epoch] = await Promise.all([
        repo.waiting([department.id], closedAt),
        repo.devicesOf(members),
        currentEpoch(db),
      ]);
      const waitingOf = new Map(waiting.map((w) => [w.user_email, w]));
      const devicesOf = new Map(devices.map((d) => [d.user_email, d]));
      const before = stuckBefore(now);
      return {
        slug: department.slug,
        title: department.title,
        generatedAt: now.toISOString(),
        stuckAfterMinutes: FIELD_STUCK_MINUTES,
        validators: members
          .map((email) =>
            validatorLine(
              email,
              waitingOf.get(email),
              devicesOf.get(email),
              before,
              closedAt !== null,
              epoch?.number ?? null,
            ),
          )
          .sort(byUrgency),
      };
    },

    /**
     * Every department a person may see: admins all, others those on their lists. Each one's summary,
     * those with someone stuck first (then those with most waiting, then menu order), and every validator
     * with something waiting, the stuck first.
     */
    async overview(user: SessionUser): Promise<FieldOverview> {
      const now = clock();
      const departments = await repo.municipalities(user.role === 'admin' ? null : user.email);
      const ids = departments.map((d) => d.id);
      const [waiting, members] = await Promise.all([repo.waiting(ids), repo.memberCounts(ids)]);
      const devices = await repo.devicesOf([...new Set(waiting.map((w) => w.user_email))]);
      const devicesOf = new Map(devices.map((d) => [d.user_email, d]));
      const before = stuckBefore(now);
      const byId = new Map(departments.map((d) => [d.id, d]));
      const validators = waiting
        .flatMap((w) => {
          const department = byId.get(w.department_id);
          if (!department) return [];
          const line = validatorLine(w.user_email, w, devicesOf.get(w.user_email), before);
          return line.waiting > 0 ? [{ ...line, slug: department.slug, title: department.title }] : [];
        })
        .sort((a, b) => byUrgency(a, b) || a.title.localeCompare(b.title, 'es'));
      const summaries = departments.map((d, position) => {
        const here = validators.filter((v) => v.slug === d.slug);
        return {
          position,
          slug: d.slug,
          title: d.title,
          validators: members.get(d.id) ?? 0,
          withWaiting: here.length,
          waiting: here.reduce((sum, v) => sum + v.waiting, 0),
          stuck: here.filter((v) => v.stuck).length,
        };
      });
      summaries.sort((a, b) => b.stuck - a.stuck || b.waiting - a.waiting || a.position - b.position);
      return {
        generatedAt: now.toISOString(),
        stuckAfterMinutes: FIELD_STUCK_MINUTES,
        departments: summaries.map(({ position: _position, ...summary }) => summary),
        validators,
      };
    },

    /** Items the phones say wait, per municipality or parish (its slug), for the operators' metrics. */
    async waitingByDepartment(): Promise<{ label: string; value: number }[]> {
      const departments = await repo.municipalities(null);
      const waiting = await repo.waiting(departments.map((d) => d.id));
      return departments.map((d) => ({
        label: d.slug,
        value: waiting.filter((w) => w.department_id === d.id).reduce((sum, w) => sum + w.waiting, 0),
      }));
    },

    /**
     * Each validator's pace, on every list a person may see: records they voted in the last hour, their
     * last vote today (America/Caracas), idle after FIELD_IDLE_MINUTES without one, and what waits on
     * their phones there. The stuck first, then the idle, then the busiest.
     */
    async pace(user: SessionUser): Promise<FieldPace> {
      const now = clock();
      const departments = await repo.municipalities(user.role === 'admin' ? null : user.email);
      const ids = departments.map((d) => d.id);
      const dayStart = new Date(`${dateInTimeZone(now)}T00:00:00-04:00`).toISOString();
      const hourAgo = new Date(now.getTime() - 60 * MINUTE_MS).toISOString();
      const idleBefore = new Date(now.getTime() - FIELD_IDLE_MINUTES * MINUTE_MS).toISOString();
      const [members, votes, waiting, day] = await Promise.all([
        repo.members(ids),
        repo.votesBy(ids, dayStart, hourAgo),
        repo.waiting(ids),
        readElection(db, now),
      ]);
      // Idle is counted from when voting began (the day, or the drill, under way since its change of
      // phase, and never before today's midnight): nobody is idle four minutes into the day, nor
      // before it starts or after its close.
      const voting = day.phase === 'en_curso' || day.phase === 'simulacro';
      const since = voting && day.row && day.row.changed_at > dayStart ? day.row.changed_at : dayStart;
      const key = (departmentId: number, email: string) => `${departmentId} ${email}`;
      const votesOf = new Map(votes.map((v) => [key(v.department_id, v.voted_by), v]));
      const waitingOf = new Map(waiting.map((w) => [key(w.department_id, w.user_email), w]));
      const byId = new Map(departments.map((d) => [d.id, d]));
      const before = stuckBefore(now);
      const validators = members.flatMap((m) => {
        const department = byId.get(m.department_id);
        if (!department) return [];
        const v = votesOf.get(key(m.department_id, m.email));
        const w = waitingOf.get(key(m.department_id, m.email));
        const lastActivityAt = v?.last_at ?? null;
        const oldest = w?.oldest ?? null;
        return [
          {
            email: m.email,
            slug: department.slug,
            title: department.title,
            lastHour: v?.recent ?? 0,
            lastActivityAt,
            idle: voting && (lastActivityAt ?? since) <= idleBefore,
            waiting: Number(w?.waiting ?? 0),
            stuck: oldest !== null && oldest <= before,
          },
        ];
      });
      validators.sort(
        (a, b) =>
          Number(b.stuck) - Number(a.stuck) ||
          Number(b.idle) - Number(a.idle) ||
          b.lastHour - a.lastHour ||
          a.title.localeCompare(b.title, 'es') ||
          a.email.localeCompare(b.email),
      );
      return { generatedAt: now.toISOString(), idleAfterMinutes: FIELD_IDLE_MINUTES, validators };
    },

    /**
     * A coordinator forgets what a person's phones said waits in a department: a phone that went quiet
     * (lost, wiped, its items deleted) would otherwise show them for ever. Audited. A phone that still
     * holds them says so again in its next report.
     */
    async clear(actor: Actor, department: Department, email: string): Promise<{ cleared: number }> {
      const now = clock();
      return runChange(db, async ({ trx, audit }) => {
        const cleared = await repo.clearItems(trx, email, department.id);
        await audit({
          actorEmail: actor.email,
          action: 'field.clear',
          departmentSlug: department.slug,
          target: email,
          ip: actor.ip,
          details: { items: cleared },
          at: now,
        });
        return { cleared };
      });
    },
  };
}
