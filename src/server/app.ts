import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import '#shared/platform/zod-spanish';
import type { RecordChangeHooks } from '#server/core/records/records';
import { agendaAdminRoutes } from '#server/features/agenda/agenda.admin.routes';
import { agendaRoutes } from '#server/features/agenda/agenda.routes';
import { accountRoutes } from '#server/features/auth/account.routes';
import { authRoutes } from '#server/features/auth/auth.routes';
import { registerPasswordChangeGate } from '#server/features/auth/password-change-gate';
import { registerSecondFactorGate } from '#server/features/auth/second-factor-gate';
import { accessRoutes } from '#server/features/departments/departments.access.routes';
import { closeResultsRoutes, electionRoutes } from '#server/features/election/election.routes';
import { fieldRoutes } from '#server/features/field/field.routes';
import { healthRoutes } from '#server/features/health/health.routes';
import { notasAdminRoutes } from '#server/features/notas/notas.admin.routes';
import { notasRoutes } from '#server/features/notas/notas.routes';
import { createNotaHtml, type NotaHtmlOptions } from '#server/features/notas/notas.sanitize';
import { createWordpressSource } from '#server/features/notas/wordpress.source';
import { photoReviewRoutes } from '#server/features/photo-review/photo-review.routes';
import { photoUploadsRoutes } from '#server/features/photos/photo-uploads.routes';
import { photosRoutes } from '#server/features/photos/photos.routes';
import { recordsRoutes } from '#server/features/records/records.routes';
import { recordsAdminRoutes } from '#server/features/records-admin/records-admin.routes';
import { recordsImportRoutes } from '#server/features/records-import/records-import.routes';
import { resultsRoutes } from '#server/features/results/results.routes';
import { siteRoutes } from '#server/features/settings/settings.routes';
import { smsRoutes } from '#server/features/sms/sms.routes';
import {
  type AirtableWritebackOverrides,
  createAirtableWriteback,
} from '#server/integrations/airtable/airtable.writeback';
import { loadDemoData } from '#server/integrations/demo/demo';
import { materializeDemoPhotos } from '#server/integrations/demo/photos.demo';
import { type Config, fastifyTrustProxy } from '#server/platform/config/config';
import { type Db, migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { registerApiDocs } from '#server/platform/http/api-docs';
import { registerErrorHandling } from '#server/platform/http/errors';
import { registerGracefulClose } from '#server/platform/http/graceful-close';
import { registerOriginCheck } from '#server/platform/http/origin-check';
import { registerPrivateAnswers } from '#server/platform/http/private-answers';
import { RequestLogController, requestLogLevel } from '#server/platform/http/request-log';
import { registerSecurityHeaders } from '#server/platform/http/security';
import { registerSpa } from '#server/platform/http/spa';
import { registerBodyTimeout, serverTimeoutOptions } from '#server/platform/http/timeouts';
import { registerMetrics } from '#server/platform/metrics/metrics';
import { type CopyWatch, createCopyWatch } from '#server/platform/replica/copy-watch';
import { settleEpochAtStart } from '#server/platform/replica/epoch';
import { startLitestream } from '#server/platform/replica/litestream';
import {
  checkSecondFactorKey,
  loadSecondFactorKey,
  type SecondFactorKey,
} from '#server/platform/session/second-factor-key';
import { registerAuth } from '#server/platform/session/session.plugin';
import { createPhotoStorage, dataRoot } from '#server/platform/storage/create-photo-storage';
import { createDataDisk, type DataDisk, type FreeBytesReader } from '#server/platform/storage/data-disk';
import { adminRoutes } from './admin.routes';
import { composeServices } from './compose';
import { registerPublicPages } from './public-pages';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    /** Work done inside each vote's and photo's transaction (the Airtable write-back outbox). */
    recordHooks: RecordChangeHooks;
    /** The data folder's disk: its free space and the floor new uploads must leave. */
    dataDisk: DataDisk;
    /** The key the TOTP secrets are encrypted with (docs/decisions/086). */
    secondFactorKey: SecondFactorKey;
    /** How far the off-machine copy has reached (docs/decisions/106). */
    copyWatch: CopyWatch;
  }
}

/**
 * What a caller (server.ts, tests) may change of the server it builds, in one place: a test that needs
 * another part gives it here; compose.ts hands it to the part that uses it. Everything else is built from
 * the configuration.
 */
export interface BuildOptions {
  /** An already open database (tests); otherwise one is opened from the configuration. */
  db?: Db;
  /** Pino options or false; defaults to JSON logs at the configured level. */
  logger?: boolean | object;
  /** Where the demo's lines go (its accounts and passwords); the console by default. */
  announce?: (line: string) => void;
  /** Timings of the Airtable write-back worker (tests: short polls and backoff). */
  airtableWriteback?: AirtableWritebackOverrides;
  /** Bounds, time budget and timers of the nota sanitiser (tests); otherwise its defaults. */
  notaHtml?: NotaHtmlOptions;
  /** How the data folder's free space is read (tests: a disk as full as they need); otherwise statfs. */
  freeDiskBytes?: FreeBytesReader;
}

/** Builds the whole app without listening. The caller owns `listen()` and `close()`. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Created first so that its log tells each attempt to reach the database.
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      // Outside production the log goes through process.stdout, written at once like console.log: the
      // start-up block (server.ts) then comes after 'Server listening…', not before it. Production
      // keeps pino's own asynchronous writer.
      ...(config.env === 'production' ? {} : { stream: process.stdout }),
    },
    // Request lines at debug outside production (LOG_LEVEL=debug shows them), at info in production.
    logController: new RequestLogController(requestLogLevel(config.env)),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // While closing, a request that reaches a connection still open is served (graceful-close.ts).
    return503OnClosing: false,
    ...serverTimeoutOptions(config.timeouts),
  }).withTypeProvider<ZodTypeProvider>();

  // The one photo storage of the server: every plugin, the demo's photos and the drill's erasure use it.
  const storage = createPhotoStorage(config);
  const db =
    options.db ??
    (await openDatabase({
      ...config,
      litestream: config.replica !== undefined,
      connectRetryMs: config.databaseConnectRetryMs,
      onConnectRetry: ({ number, error, nextInMs, untilMs }) =>
        app.log.warn(
          { attempt: number, err: error, nextInMs, untilMs },
          `PostgreSQL does not answer (attempt ${number}); trying again in ${nextInMs} ms`,
        ),
    }));
  const ownsDb = !options.db;
  let secondFactorKey: SecondFactorKey;
  try {
    // Loaded (or made) before the migrations, which seal the secrets stored before with it, and checked
    // against what it sealed before: another key stops the start here, not at someone's sign-in.
    secondFactorKey = loadSecondFactorKey(config);
    await migrateToLatest(db, { secondFactorKey: () => secondFactorKey });
    await checkSecondFactorKey(db.kysely, secondFactorKey, config.now());
    // A database brought here from a copy starts a new epoch, which phones read (decision 106).
    await settleEpochAtStart(db, config.now());
    await seedReferenceData(db, config.now(), config.campaignName);
    if (config.demo) await loadDemoData(db, config.now(), options.announce);
    // Demo photo rows (demo data, end-to-end seeds) become real files in the configured storage, once.
    await materializeDemoPhotos(db.kysely, storage);
  } catch (error) {
    if (ownsDb) await db.close();
    throw error;
  }

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('secondFactorKey', secondFactorKey);
  app.decorate(
    'dataDisk',
    createDataDisk({
      dir: dataRoot(config.dataDir),
      minFreeBytes: config.dataDirMinFreeBytes,
      freeBytes: options.freeDiskBytes,
    }),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerGracefulClose(app);
  // Before every route, so each answer is counted (docs/decisions/075).
  registerMetrics(app, db, config.metricsToken);
  // The data folder's disk and its floor, for an alert before uploads are refused (docs/deploy/alerts.yml).
  app.metrics.gauge({
    name: 'comando_data_dir_free_bytes',
    help: 'Bytes this process may still write on the disk of DATA_DIR',
    read: () => app.dataDisk.freeBytes(),
  });
  app.metrics.gauge({
    name: 'comando_data_dir_min_free_bytes',
    help: 'The free space DATA_DIR keeps (DATA_DIR_MIN_FREE_MB): under it, uploads are refused with 507',
    read: () => app.dataDisk.minFreeBytes,
  });
  // REPLICA_URL on SQLite: Litestream copies the database off the machine while the server runs. Its
  // hook is added before the database's, so it stops after it (Fastify runs onClose hooks in reverse).
  const litestream =
    config.replica && db.file
      ? await startLitestream(db.file, config.replica, {
          info: (m) => app.log.info(m),
          warn: (m) => app.log.warn(m),
          error: (m) => app.log.error(m),
        })
      : undefined;
  if (litestream) app.addHook('onClose', async () => litestream.stop());
  const copyWatch = createCopyWatch({ db, now: config.now, litestream });
  app.decorate('copyWatch', copyWatch);
  app.addHook('onClose', async () => copyWatch.stop());
  app.metrics.gauge({
    name: 'comando_replica_lag_seconds',
    help: 'How long ago the off-machine copy (Litestream, a PostgreSQL standby, else the last whole backup) was last known to hold everything; +Inf with no copy',
    label: 'kind',
    read: async () => {
      const copy = await copyWatch.state();
      return [{ label: copy.kind, value: copy.lagSeconds ?? Number.POSITIVE_INFINITY }];
    },
  });
  if (ownsDb) app.addHook('onClose', async () => db.close());

  // AIRTABLE_WRITEBACK=1: votes and photos of records from Airtable are queued in their own transaction
  // and a worker sends them. Its onClose runs before the database's (Fastify runs them in reverse).
  const writeback = createAirtableWriteback(config, db.kysely, app.log, options.airtableWriteback);
  const writebackHooks: RecordChangeHooks = writeback?.hooks ?? {};
  app.decorate('recordHooks', {
    async afterVote(trx, vote) {
      await writebackHooks.afterVote?.(trx, vote);
      // Counted in the vote's transaction; the first write of a record's vote, not a correction.
      if (vote.revision === 1) app.metrics.voteStored();
    },
    async afterPhoto(trx, photo) {
      await writebackHooks.afterPhoto?.(trx, photo);
      app.metrics.photoStored(photo.kind);
    },
  } satisfies RecordChangeHooks);
  if (writeback) {
    app.addHook('onReady', async () => writeback.worker.start());
    app.addHook('onClose', async () => writeback.worker.stop());
  }

  // Nota HTML (saved, read from the database or from WordPress) is sanitised on a worker thread, with
  // bounds and a time budget (docs/decisions/027). Closed after the WordPress source (hooks run in
  // reverse): what is still being sanitised is dropped, not waited for.
  const html = createNotaHtml(options.notaHtml);
  app.addHook('onClose', async () => html.close());

  // NOTAS_SOURCE=wordpress: the first copy is read at start, so the first visitor does not wait for it;
  // the images its posts use are allowed by the Content-Security-Policy.
  const wordpress =
    config.notas.source === 'wordpress'
      ? createWordpressSource({ config: config.notas, log: app.log, html })
      : undefined;
  if (wordpress) {
    app.addHook('onReady', async () => wordpress.warmUp());
    app.addHook('onClose', async () => wordpress.close());
  }

  await registerSecurityHeaders(app, config, { imageOrigins: wordpress?.imageOrigins });
  await app.register(compress, { threshold: 1024 });
  registerOriginCheck(app, config);
  registerPrivateAnswers(app);
  registerBodyTimeout(app, config.timeouts);
  await registerAuth(app);
  registerSecondFactorGate(app);
  registerPasswordChangeGate(app);

  await registerApiDocs(app, config);

  // Every service, storage, gateway and guard, built once (compose.ts); each plugin takes what it names.
  const services = await composeServices(app, { storage, html, wordpress });
  await app.register(healthRoutes);
  await app.register(siteRoutes, services);
  await app.register(agendaRoutes, services);
  await app.register(notasRoutes, services);
  await app.register(authRoutes, services);
  await app.register(accountRoutes, services);
  await app.register(accessRoutes, services);
  await app.register(recordsRoutes, services);
  await app.register(smsRoutes, services);
  await app.register(photosRoutes, services);
  await app.register(photoUploadsRoutes, services);
  await app.register(photoReviewRoutes, services);
  await app.register(fieldRoutes, services);
  await app.register(resultsRoutes, services);
  await app.register(electionRoutes, services);
  await app.register(closeResultsRoutes, services);
  await app.register(adminRoutes, services);
  await app.register(agendaAdminRoutes, services);
  await app.register(notasAdminRoutes, services);
  await app.register(recordsAdminRoutes, services);
  await app.register(recordsImportRoutes, services);

  await registerPublicPages(app, services.readNotas);
  await registerSpa(app, config.webRoot);
  return app;
}
