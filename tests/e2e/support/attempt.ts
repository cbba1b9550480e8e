import { type TestInfo, test } from '@playwright/test';

/**
 * A number of its own for each run of a test against the shared app instances: every `--repeat-each`
 * run and every retry (CI retries a failure once) gets a fresh one, so a test picks records and accounts
 * no earlier try of it touched. A retry runs against the same server as the try that failed: a record
 * that try voided or voted, or a password it changed, would make the retry fail for a reason of its own.
 * Seeds give each test enough records for a dozen of these (see the seed files).
 */
export function attemptIndex(info: TestInfo = test.info()): number {
  return info.repeatEachIndex * (info.project.retries + 1) + info.retry;
}
