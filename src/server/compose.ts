import type { FastifyInstance } from 'fastify';
import { createAgendaService } from '#server/features/agenda/agenda.service';
import { createAgendaTodayReader } from '#server/features/agenda/agenda.today';
import { createAuditService } from '#server/features/audit/audit.service';
import { openIpPlaces } from '#server/features/auth/ip-places';
import { createOpenSessionsService } from '#server/features/auth/open-sessions.service';
import { createSecondFactorService } from '#server/features/auth/second-factor.service';
import { createSessionViews } from '#server/features/auth/session-view';
import { createSignInService } from '#server/features/auth/sign-in.service';
import { createCandidatesService } from '#server/features/candidates/candidates.service';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createDrillAccounts } from '#server/features/election/drill-accounts';
import { createElectionService } from '#server/features/election/election.service';
import { createEvidenceService } from '#server/features/evidence/evidence.service';
import { loadEvidenceKey } from '#server/features/evidence/evidence-key';
import { createFieldService } from '#server/features/field/field.service';
import { createPublishedNotasReader } from '#server/features/notas/notas.public';
import type { NotaHtml } from '#server/features/notas/notas.sanitize';
import { createNotasService } from '#server/features/notas/notas.service';
import type { WordpressSource } from '#server/features/notas/wordpress.source';
import { createAdminPeopleService } from '#server/features/people/people.service';
import { createPhotoReviewService } from '#server/features/photo-review/photo-review.service';
import { createPhotoUploadsService } from '#server/features/photos/photo-uploads.service';
import { createRecordsService } from '#server/features/records/records.service';
import { createRecordsAdminService } from '#server/features/records-admin/records-admin.service';
import { createRecordsPurgeService } from '#server/features/records-admin/records-purge.service';
import { createRecordsImportService } from '#server/features/records-import/records-import.service';
import {
  createBreakdownReader,
  createResultsAnswer,
  createResultsReader,
  createTimelineReader,
} from '#server/features/results/results.service';
import { createResultsExports } from '#server/features/results/results-export.service';
import { createSettingsService } from '#server/features/settings/settings.service';
import { createSiteInfoReader } from '#server/features/settings/site-info';
import { createSmsService } from '#server/features/sms/sms.service';
import { createAndroidSmsGateway } from '#server/integrations/sms-gateway/android-sms-gateway';
import { createAccessGuards } from '#server/platform/access/guards';
import { createIdempotencyKeys } from '#server/platform/idempotency/idempotency';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { uploadTempDir } from '#server/platform/storage/create-photo-storage';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { createResumableUploads, resumableUploadDir } from '#server/platform/uploads/resumable-uploads';

/** What app.ts builds before the services: the pieces with a life of their own (started, closed). */
export interface ComposeParts {
  /** Photo storage, built once for the whole server (app.ts). */
  storage: PhotoStorage;
  /** The nota sanitiser's worker thread. */
  html: NotaHtml;
  /** NOTAS_SOURCE=wordpress: the WordPress copy; undefined otherwise. */
  wordpress: WordpressSource | undefined;
}

/**
 * The server's composition root (docs/decisions/105): every service, storage, gateway and guard the
 * routes use is built here, once, and handed to the plugins as their options (app.ts registers each
 * plugin with this object). A plugin builds nothing that reads or writes the database: a route calls a
 * service, and a test that needs another part changes it here (BuildOptions in app.ts), nowhere else.
 */
export async function composeServices(app: FastifyInstance, parts: ComposeParts) {
  const { config, log } = app;
  const db = app.db.kysely;
  const now = config.now;
  const { storage, html, wordpress } = parts;
  const secondFactorByDefault = config.env === 'production';
  const smsVotes = config.sms !== undefined;

  // Storage of the platform: settings, the phones' kept answers (Idempotency-Key), guards.
  const settings = createSettingsRepository(db);
  const readSettings = () => settings.getAll();
  const keys = createIdempotencyKeys(db, { days: config.idempotencyKeyDays, now });
  const guards = createAccessGuards(db);

  // Gateways: the SMS gateway, the place database of IPs (a file that is no place database stops the
  // start, decision 086), Firebase's token verifier (its JOSE library loaded only with Firebase on), the
  // evidence signing key.
  const smsGateway = config.sms ? createAndroidSmsGateway(config.sms) : undefined;
  const places = await openIpPlaces(config.geoipDatabase);
  const provider = config.auth;
  const verifyFirebaseIdToken =
    provider.provider === 'firebase'
      ? (await import('#server/features/auth/firebase-token')).createFirebaseTokenVerifier({
          ...provider,
          // The configuration already refuses the emulator in production; this holds even if it did not.
          emulatorTokens: provider.emulatorTokens && config.env !== 'production',
        })
      : undefined;

  // One records service, so an SMS vote joins the app's votes in the same writer (docs/decisions/084).
  const records = createRecordsService(db, {
    dialect: app.db.dialect,
    hooks: app.recordHooks,
    keys,
    now,
    log,
    smsVotes,
  });

  const uploads = createResumableUploads(db, {
    directory: resumableUploadDir(uploadTempDir(config.dataDir)),
    hours: config.resumableUploadHours,
    now,
    dialect: app.db.dialect,
  });
  const readBreakdown = createBreakdownReader(db, now);
  const evidence = createEvidenceService({
    db,
    storage,
    key: loadEvidenceKey(config),
    now,
    timestampUrl: config.evidence?.timestampUrl,
  });
  // The signing key is named in the audit log when it is new (docs/decisions/073).
  await evidence.announceKey();

  return {
    storage,
    keys,
    guards,
    readSettings,
    /** Ballot photos sent in one request: their own conversion queue, as the resumable ones have theirs. */
    ballotImages: createImagePipeline(),
    uploadsTempDir: uploadTempDir(config.dataDir),

    agendaToday: createAgendaTodayReader(db, now),
    agenda: createAgendaService(db, now),
    siteInfo: createSiteInfoReader(db, now),
    // One reader for the API and the rendered pages: a WordPress source keeps one copy of the posts.
    readNotas: createPublishedNotasReader(db, wordpress, html),
    notas: createNotasService(db, now, html),

    signIn: createSignInService(db, now, { secondFactorByDefault }),
    sessionViews: createSessionViews(db, { provider: provider.provider, readSettings }),
    verifyFirebaseIdToken,
    openSessions: createOpenSessionsService(db, now, places),
    secondFactor: createSecondFactorService(db, now, app.secondFactorKey),

    departments: createDepartmentsService(db, now),
    people: createAdminPeopleService(db, now, config.auth.provider),
    candidates: createCandidatesService({
      db,
      dialect: app.db.dialect,
      clock: now,
      storage,
      images: createImagePipeline({ concurrency: 1 }),
    }),
    settings: createSettingsService(db, now, { secondFactorByDefault }),
    audit: createAuditService(db, { now, settings: readSettings }),
    evidence,

    records,
    sms: createSmsService(db, {
      gateway: smsGateway,
      phone: config.sms?.phone ?? null,
      castVote: (input) => records.vote(input),
      now,
      log,
    }),
    smsGateway,
    uploads,
    photoUploads: createPhotoUploadsService({
      db,
      storage,
      images: createImagePipeline(),
      keys,
      uploads,
      hooks: app.recordHooks,
      now,
      smsVotes,
      budgetBytes: config.resumableUploadBudgetBytes,
      requireRoom: (bytes) => app.dataDisk.requireRoom(bytes),
    }),
    field: createFieldService(db, now),
    photoReview: createPhotoReviewService(db, now),
    results: {
      read: createResultsReader(db, now),
      answer: createResultsAnswer(db, now),
      readBreakdown,
      readTimeline: createTimelineReader(db, now),
      exports: createResultsExports(db, { now, readBreakdown }),
    },
    drillAccounts: createDrillAccounts(db, now),
    election: createElectionService(db, now, {
      timestampUrl: config.evidence?.timestampUrl,
      storage,
      onFileLeft: (key, error) => log.warn({ err: error, key }, 'a drill photo file could not be deleted'),
      securedBefore: () => app.copyWatch.securedBefore(),
    }),
    recordsAdmin: createRecordsAdminService(db, now, app.recordHooks),
    purge: createRecordsPurgeService(db, now, { storage }),
    recordsImport: createRecordsImportService(db, now),
  };
}

/** Every part the routes use: each plugin takes the ones it names in its options. */
export type Services = Awaited<ReturnType<typeof composeServices>>;
