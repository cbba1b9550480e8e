import { ConfigError, loadConfig } from '#server/platform/config/config';
import { loadSecondFactorKey } from '#server/platform/session/second-factor-key';
import { DatabaseStartupError, migrateToLatest, openDatabase } from './database';

try {
  const config = loadConfig();
  const db = await openDatabase(config);
  // The server's key (decision 086), loaded only if migration 031 has secrets to seal.
  const applied = await migrateToLatest(db, { secondFactorKey: () => loadSecondFactorKey(config) });
  console.log(applied.length ? `Migraciones aplicadas: ${applied.join(', ')}` : 'La base de datos ya está al día.');
  await db.close();
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseStartupError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
