import { sweepStorageAtStart } from '#server/integrations/storage-migrate/storage-sweep';
import { ConfigError, loadConfig } from '#server/platform/config/config';
import { DatabaseStartupError } from '#server/platform/db/database';
import { keepNewFilesPrivate } from '#server/platform/lib/private-files';
import { buildApp } from './app';
import { addressToOpen, startupMessage } from './startup-message';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  // The data folder, the database, photos and uploads: their user's only (decision 092).
  keepNewFilesPrivate();
  const config = loadConfig();
  // The demo's accounts and passwords wait for the start-up block, where the logs do not bury them.
  const demoLines: string[] = [];
  const app = await buildApp(config, { announce: (line) => demoLines.push(line) });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
    const bound = app.server.address();
    const port = typeof bound === 'object' && bound ? bound.port : config.port;
    console.log(startupMessage({ address: addressToOpen(config, port), demoLines }));
    // What a crash left in photo storage goes now, in the background (storage-sweep.ts).
    void sweepStorageAtStart(app.db.kysely, config, app.log);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `el puerto ${config.port} ya está en uso (cambia PORT o detén el otro proceso)`
        : (error as Error).message;
    console.error(`No se pudo iniciar el servidor: ${reason}`);
    await app.close();
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseStartupError) {
    console.error(error.message);
  } else {
    console.error('No se pudo iniciar Comando:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
