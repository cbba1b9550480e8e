import type { Kysely } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';

/** What this migration needs of the second factor's key (second-factor-key.ts), asked for only if used. */
export interface SecretSealer {
  seal(secret: string, userId: number): string;
}

export const SEALER_MISSING =
  'Hay secretos del segundo factor sin cifrar y no se dio la clave para cifrarlos: arranca el servidor ' +
  '(o npm run db:migrate) con su configuración, SECOND_FACTOR_KEY o la carpeta de datos.';

type Users = {
  users: { id: number; totp_secret: string | null; totp_pending_secret: string | null };
};

/**
 * TOTP secrets encrypted at rest (docs/decisions/086): every secret stored before (confirmed or still
 * pending) is sealed with the second factor's key, once, in the migration's transaction. From here on
 * the app only ever writes and reads sealed values. A sealed value is longer than the 64 characters the
 * columns had: PostgreSQL gets room for it (SQLite does not enforce the length).
 */
export function secondFactorSecretsSealedMigration(dialect: Dialect, sealer: (() => SecretSealer) | undefined) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        for (const column of ['totp_secret', 'totp_pending_secret']) {
          await db.schema
            .alterTable('users')
            .alterColumn(column, (c) => c.setDataType('varchar(200)'))
            .execute();
        }
      }
      const users = db as Kysely<Users>;
      const rows = await users
        .selectFrom('users')
        .select(['id', 'totp_secret', 'totp_pending_secret'])
        .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
        .execute();
      if (rows.length === 0) return;
      if (!sealer) throw new Error(SEALER_MISSING);
      const key = sealer();
      for (const row of rows) {
        await users
          .updateTable('users')
          .set({
            totp_secret: row.totp_secret === null ? null : key.seal(row.totp_secret, row.id),
            totp_pending_secret: row.totp_pending_secret === null ? null : key.seal(row.totp_pending_secret, row.id),
          })
          .where('id', '=', row.id)
          .execute();
      }
    },
  };
}
