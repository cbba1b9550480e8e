import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditRoutes } from '#server/features/audit/audit.routes';
import { adminCandidatesRoutes, candidatePhotoRoutes } from '#server/features/candidates/candidates.routes';
import { adminDepartmentsRoutes } from '#server/features/departments/departments.routes';
import { adminEvidenceRoutes } from '#server/features/evidence/evidence.routes';
import { adminElectionRoutes } from '#server/features/election/election.routes';
import { adminPeopleRoutes } from '#server/features/people/people.routes';
import { adminSettingsRoutes } from '#server/features/settings/settings.admin.routes';
import { requireAdmin } from '#server/platform/session/session.plugin';

/**
 * The back office's API under /api/admin: people and access, departments, candidates, settings and the
 * audit log, for admins only. Candidate photos are served apart, to everyone (campaign material).
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (admin) => {
    // Before the body is parsed or validated: someone who is not an admin learns nothing, not even
    // which fields a request would need (a visitor 401, anyone else the unknown-resource 404).
    admin.addHook('onRequest', async (request) => {
      requireAdmin(request);
    });
    await admin.register(adminPeopleRoutes);
    await admin.register(adminDepartmentsRoutes);
    await admin.register(adminCandidatesRoutes);
    await admin.register(adminSettingsRoutes);
    await admin.register(adminAuditRoutes);
    await admin.register(adminEvidenceRoutes);
    await admin.register(adminElectionRoutes);
  });
  await app.register(candidatePhotoRoutes);
};
