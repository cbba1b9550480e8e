import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { createAccessRepository } from '#server/platform/access/access.repository';
import type { Database } from '#server/platform/db/schema';
import { NotFound } from '#server/platform/http/errors';
import type { SessionUser } from '#server/platform/session/identity';
import { requireUser } from '#server/platform/session/session.plugin';
import {
  type DeviceReport,
  deviceReportAnswerSchema,
  deviceReportSchema,
  FIELD_STUCK_MINUTES,
  type FieldValidator,
  fieldDepartmentsSchema,
  fieldParamsSchema,
  fieldViewSchema,
} from '#shared/features/field/field';
import { apiErrorSchema } from '#shared/platform/errors';
import { createFieldRepository, type DeviceReportRow } from './field.repository';

const MINUTE_MS = 60_000;
/** A phone's clock is trusted within this much of the server's; beyond it, its times are shifted. */
const CLOCK_TOLERANCE_MS = 2 * MINUTE_MS;

/** The department whose field view a person may see: admins every one, others those on their lists. */
async function requireFieldAccess(db: Kysely<Database>, user: SessionUser, slug: string) {
  const access = createAccessRepository(db);
  const department = await access.findDepartment(slug);
  if (department?.kind !== 'municipality') throw NotFound();
  if (user.role !== 'admin' && !(await access.isMember(department.id, user.email))) throw NotFound();
  return department;
}

type Departments = { slug: string; waiting: number; oldestWaitingAt: string | null }[];

/** One validator's line: their phones' reports, for one department. */
export function summarise(email: string, reports: DeviceReportRow[], slug: string, now: Date): FieldValidator {
  const latest = (values: (string | null)[]) =>
    values
      .filter((v): v is string => v !== null)
      .sort()
      .at(-1) ?? null;
  let waiting = 0;
  let oldest: string | null = null;
  let lastError: FieldValidator['lastError'] = null;
  for (const report of reports) {
    for (const d of JSON.parse(report.departments) as Departments) {
      if (d.slug !== slug) continue;
      waiting += d.waiting;
      if (d.oldestWaitingAt && (oldest === null || d.oldestWaitingAt < oldest)) oldest = d.oldestWaitingAt;
    }
    if (report.last_error && report.last_error_at && (!lastError || report.last_error_at > lastError.at)) {
      lastError = { message: report.last_error, at: report.last_error_at };
    }
  }
  const stuckBefore = new Date(now.getTime() - FIELD_STUCK_MINUTES * MINUTE_MS).toISOString();
  return {
    email,
    lastSeenAt: latest(reports.map((r) => r.reported_at)),
    waiting,
    oldestWaitingAt: oldest,
    lastSuccessAt: latest(reports.map((r) => r.last_success_at)),
    lastError,
    stuck: waiting > 0 && oldest !== null && oldest <= stuckBefore,
    devices: reports.length,
  };
}

/**
 * The coordinators' field view (docs/decisions/048): each signed-in phone reports its outbox now and
 * then; admins, and the members of a department's list for that department, see per validator when
 * their phone was last heard from, what waits on it, since when, and its last error.
 */
export const fieldRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const field = createFieldRepository(db);

  app.post(
    '/api/field/reports',
    {
      schema: {
        tags: ['validación'],
        summary: 'Un teléfono informa de su cola: cuántos envíos esperan, desde cuándo, su último éxito y error',
        body: deviceReportSchema,
        response: { 200: deviceReportAnswerSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const report: DeviceReport = request.body;
      const now = app.config.now();
      // The phone's times on the server's clock: a phone set to the wrong hour must not look stuck (or fine).
      const skew = now.getTime() - new Date(report.deviceNow).getTime();
      const shift = Math.abs(skew) > CLOCK_TOLERANCE_MS ? skew : 0;
      const onServerClock = (at: string | null) => {
        if (at === null) return null;
        return new Date(Math.min(now.getTime(), new Date(at).getTime() + shift)).toISOString();
      };
      await field.saveReport({
        device_id: report.deviceId,
        user_email: user.email,
        reported_at: now.toISOString(),
        waiting: report.waiting,
        oldest_waiting_at: onServerClock(report.oldestWaitingAt),
        last_success_at: onServerClock(report.lastSuccessAt),
        last_error: report.lastError?.message ?? null,
        last_error_at: onServerClock(report.lastError?.at ?? null),
        departments: JSON.stringify(
          report.departments
            .filter((d) => d.waiting > 0)
            .map((d) => ({ ...d, oldestWaitingAt: onServerClock(d.oldestWaitingAt) })),
        ),
      });
      return { receivedAt: now.toISOString() };
    },
  );

  app.get(
    '/api/field',
    {
      schema: {
        tags: ['validación'],
        summary: 'Los municipios y parroquias cuyo campo puede ver esta persona',
        response: { 200: fieldDepartmentsSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const rows = await field.municipalities(user.role === 'admin' ? null : user.email);
      return { departments: rows.map(({ slug, title }) => ({ slug, title })) };
    },
  );

  app.get(
    '/api/field/:slug',
    {
      schema: {
        tags: ['validación'],
        summary:
          'El campo de un municipio: por validador, última conexión, envíos pendientes, el más antiguo y el último error',
        params: fieldParamsSchema,
        response: { 200: fieldViewSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const department = await requireFieldAccess(db, user, request.params.slug);
      const emails = await createAccessRepository(db).listMembers(department.id);
      const reports = await field.reportsOf(emails);
      const now = app.config.now();
      const validators = emails
        .map((email) =>
          summarise(
            email,
            reports.filter((r) => r.user_email === email),
            department.slug,
            now,
          ),
        )
        // Those stuck first, then those with most waiting; then by address.
        .sort((a, b) => Number(b.stuck) - Number(a.stuck) || b.waiting - a.waiting || a.email.localeCompare(b.email));
      reply.header('cache-control', 'no-store');
      return {
        slug: department.slug,
        title: department.title,
        generatedAt: now.toISOString(),
        stuckAfterMinutes: FIELD_STUCK_MINUTES,
        validators,
      };
    },
  );
};
