import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { initial } from './001-initial';
import { authMigration } from './002-auth';
import { recordsMigration } from './003-records';
import { resultsMigration } from './004-results';
import { airtableMigration } from './005-airtable';
import { storageMigration } from './006-storage';
import { idempotencyMigration } from './007-idempotency';
import { voteCorrectionsMigration } from './008-vote-corrections';
import { passwordChangeMigration } from './009-password-change';
import { readyProbeMigration } from './010-ready-probe';
import { notaExcerptsMigration } from './011-nota-excerpts';
import { fieldValidationMigration } from './012-field-validation';
import { trustedDevicesMigration } from './013-trusted-devices';
import { fieldReportsMigration } from './014-field-reports';
import { oneTimePasswordExpiryMigration } from './015-one-time-password-expiry';
import { validatedByMigration } from './016-validated-by';
import { auditWithoutPersonalDataMigration } from './017-audit-without-personal-data';
import { auditChainMigration } from './018-audit-chain';
import { auditChainChecksMigration } from './019-audit-chain-checks';
import { auditTargetIndexMigration } from './020-audit-target-index';
import { nightViewsMigration } from './021-night-views';
import { electionMigration } from './024-election';
import { lateArrivalsAndDrillMigration } from './025-late-arrivals-and-drill';
import { secondFactorMigration } from './026-second-factor';
import { quarterTotalsMigration } from './028-quarter-totals';
import { smsMigration } from './029-sms';
import { type SecretSealer, secondFactorSecretsSealedMigration } from './031-second-factor-secrets-sealed';
import { photoTotalsMigration } from './032-photo-totals';
import { closeStampsMigration } from './033-close-stamps';
import { noVotedAtIndexMigration } from './034-no-voted-at-index';
import { personalDataPurgesMigration } from './036-personal-data-purges';
import { erasAndBoundKeysMigration } from './037-eras-and-bound-keys';
import { itemKeysMigration } from './038-item-keys';
import { drillAccountsMigration } from './039-drill-accounts';
import { databaseEpochsAndBackupsMigration } from './040-database-epochs-and-backups';
import { photoReviewMigration } from './041-photo-review';
import { fieldRecoveryMigration } from './042-field-recovery';

export interface MigrationOptions {
  /** The second factor's key, loaded only if a migration has secrets to seal (031). */
  secondFactorKey?: () => SecretSealer;
}

/** Every migration, in order. Names never change once released. */
export function migrationProvider(dialect: Dialect, options: MigrationOptions = {}): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001-initial': initial(dialect),
    '002-auth': authMigration(dialect),
    '003-records': recordsMigration(dialect),
    '004-results': resultsMigration(dialect),
    '005-airtable': airtableMigration(dialect),
    '006-storage': storageMigration(),
    '007-idempotency': idempotencyMigration(),
    '008-vote-corrections': voteCorrectionsMigration(),
    '009-password-change': passwordChangeMigration(),
    '010-ready-probe': readyProbeMigration(),
    '011-nota-excerpts': notaExcerptsMigration(),
    '012-field-validation': fieldValidationMigration(),
    '013-trusted-devices': trustedDevicesMigration(),
    '014-field-reports': fieldReportsMigration(),
    '015-one-time-password-expiry': oneTimePasswordExpiryMigration(),
    '016-validated-by': validatedByMigration(),
    // Before the chain: it rewrites rows written earlier, which the chain then hashes as they are.
    '017-audit-without-personal-data': auditWithoutPersonalDataMigration(),
    '018-audit-chain': auditChainMigration(),
    '019-audit-chain-checks': auditChainChecksMigration(dialect),
    '020-audit-target-index': auditTargetIndexMigration(),
    '021-night-views': nightViewsMigration(),
    '024-election': electionMigration(),
    '025-late-arrivals-and-drill': lateArrivalsAndDrillMigration(dialect),
    '026-second-factor': secondFactorMigration(),
    '028-quarter-totals': quarterTotalsMigration(),
    '029-sms': smsMigration(dialect),
    '031-second-factor-secrets-sealed': secondFactorSecretsSealedMigration(dialect, options.secondFactorKey),
    '032-photo-totals': photoTotalsMigration(dialect),
    '033-close-stamps': closeStampsMigration(),
    '034-no-voted-at-index': noVotedAtIndexMigration(),
    '036-personal-data-purges': personalDataPurgesMigration(),
    '037-eras-and-bound-keys': erasAndBoundKeysMigration(),
    '039-drill-accounts': drillAccountsMigration(),
    '038-item-keys': itemKeysMigration(),
    '040-database-epochs-and-backups': databaseEpochsAndBackupsMigration(),
    '041-photo-review': photoReviewMigration(dialect),
    '042-field-recovery': fieldRecoveryMigration(),
  };
  return { getMigrations: async () => migrations };
}
