import { ConfigError, loadConfig } from '#server/platform/config/config';
import { DatabaseStartupError, migrateToLatest, openDatabase } from './database';

try {
  const config = loadConfig();
  const db = await openDatabase(config);
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Migraciones aplicadas: ${applied.join(', ')}` : 'La base de datos ya está al día.');
  await db.close();
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseStartupError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
