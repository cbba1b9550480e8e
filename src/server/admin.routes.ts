import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditRoutes } from '#server/features/audit/audit.routes';
import { adminCandidatesRoutes, candidatePhotoRoutes } from '#server/features/candidates/candidates.routes';
import { adminDepartmentsRoutes } from '#server/features/departments/departments.routes';
import { adminElectionRoutes } from '#server/features/election/election.routes';
import { adminEvidenceRoutes } from '#server/features/evidence/evidence.routes';
import { adminPeopleRoutes } from '#server/features/people/people.routes';
import { adminSettingsRoutes } from '#server/features/settings/settings.admin.routes';
import { requireAdmin } from '#server/platform/access/guards';
import type { Services } from './compose';

/**
 * The back office's API under /api/admin: people and access, departments, candidates, settings and the
 * audit log, for admins only. Candidate photos are served apart, to everyone (campaign material). The
 * guard below is the only admin check of these plugins: their handlers do not repeat it.
 */
export const adminRoutes: FastifyPluginAsyncZod<Services> = async (app, services) => {
  await app.register(async (admin) => {
    // Before the body is parsed or validated: someone who is not an admin learns nothing, not even
    // which fields a request would need (a visitor 401, anyone else the unknown-resource 404).
    admin.addHook('onRequest', async (request) => {
      requireAdmin(request);
    });
    await admin.register(adminPeopleRoutes, services);
    await admin.register(adminDepartmentsRoutes, services);
    await admin.register(adminCandidatesRoutes, services);
    await admin.register(adminSettingsRoutes, services);
    await admin.register(adminAuditRoutes, services);
    await admin.register(adminEvidenceRoutes, services);
    await admin.register(adminElectionRoutes, services);
  });
  await app.register(candidatePhotoRoutes, services);
};
