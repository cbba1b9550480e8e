// Photo review (decision 134): a reviewer sends an unreadable photo back to the validator's phone, which
// takes another; the record comes back to the queue and is approved; the projector's reviewed share moves.
// Then 50 records by keyboard, timed (logged, never asserted). On a server of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createAccountsService } from '#server/features/people/accounts.service';
import { createPhotoReviewService } from '#server/features/photo-review/photo-review.service';
import { demoPhotoPlaceholder } from '#server/integrations/demo/photos.demo';
import { openDatabase } from '#server/platform/db/database';
import { testPasswordHash } from '#server/testing/auth-helpers';
import { freePort, startServerProcess } from '#server/testing/server-process';
import { PHOTO_KINDS } from '#shared/platform/constants';
import { ADMIN, type AdminServer, DESKTOP, E2E_PASSWORD, PHONE, seededDatabase, signedIn } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { RECORDS_ACCOUNTS, RECORDS_PASSWORD } from './support/seed-records';
import { E2E_NOW } from './support/servers';
import { forgetSessions } from './support/sessions';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/ballot.jpg');
const SHOTS = '/work/shots/47';
const REVIEWER = 'revisora@e2e.example';
const SLUG = 'miranda';
const FIRST = {
  comunidad: 'Sector Revisión',
  nombre: 'Ramona Revisión Primera',
  ubch: 'UBCH 110139001',
  telefono: '0414-7100000',
};
const BATCH = 50;

let server: AdminServer;
let dataDir: string;

/** Voted records of Miranda with their three photos (the first one oldest), and a reviewer of Miranda. */
async function seedReview(dir: string) {
  const db = await openDatabase({ dataDir: dir, databaseUrl: undefined });
  const now = new Date(E2E_NOW);
  const records = createRecordsRepository(db.kysely);
  const departmentId = (await records.listMunicipalities()).find((d) => d.slug === SLUG)?.id as number;
  const fa = (await records.listCandidates()).find((c) => c.code === 'FA')?.id as number;
  const list = [
    FIRST,
    ...Array.from({ length: BATCH + 5 }, (_, i) => ({ ...FIRST, nombre: `Persona Revisión ${i + 1}` })),
  ];
  const ids: number[] = [];
  for (const [i, r] of list.entries()) {
    // Each vote a minute later: the first record is the oldest in the queue.
    const at = new Date(now.getTime() - (list.length - i) * 60_000).toISOString();
    const [id] = await records.insertMany([{ departmentId, ...r, vote: { codes: ['FA'], by: 'e2e', at } }], now);
    ids.push(id as number);
    await records.insertVoteRows([{ record_id: id as number, candidate_id: fa, created_at: at }]);
  }
  await records.insertPhotos(
    ids.flatMap((id, i) =>
      PHOTO_KINDS.map((kind) => ({
        record_id: id,
        kind,
        original_key: demoPhotoPlaceholder(kind, i % 3),
        display_key: demoPhotoPlaceholder(kind, i % 3),
        thumb_key: demoPhotoPlaceholder(kind, i % 3),
        sha256: demoPhotoPlaceholder(kind, i % 3),
        size_bytes: 0,
        content_type: 'image/jpeg' as const,
        width: 480,
        height: 360,
        uploaded_by: 'e2e',
        uploaded_at: now.toISOString(),
      })),
    ),
  );
  await records.relinkPhotoSlots();
  await records.rebuildTotals();
  const actor = { email: 'e2e', ip: null };
  await createAccountsService(db.kysely, () => now, testPasswordHash).createUser(
    { email: REVIEWER, password: E2E_PASSWORD, role: 'staff' },
    actor,
  );
  await createPhotoReviewService(db.kysely, () => now).grant({ email: REVIEWER, slug: SLUG }, actor);
  await db.close();
  return ids[0] as number;
}

let firstId: number;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-revision-'));
  fs.copyFileSync(await seededDatabase(), path.join(dataDir, 'comando.sqlite'));
  firstId = await seedReview(dataDir);
  const process = await startServerProcess({
    port: await freePort(),
    dataDir,
    name: 'de revisión',
    env: { NODE_ENV: 'test', COMANDO_NOW: E2E_NOW },
  });
  server = {
    origin: process.origin,
    dataDir,
    async stop() {
      forgetSessions(process.origin);
      await process.stop();
    },
  };
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const heading = (page: Page) => page.getByTestId('revision-tramite').getByRole('heading', { level: 2 });

async function openQueue(page: Page) {
  await page.goto('/revision');
  await page.getByLabel('Municipio').selectOption(SLUG);
  await expect(heading(page)).toBeVisible();
}

test('a photo marked Ilegible goes back to the phone, comes back, is approved, and the reviewed share moves', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const reviewer = await signedIn(browser, server, { email: REVIEWER, viewport: DESKTOP });
  const page = reviewer.page;
  await openQueue(page);
  await expect(heading(page)).toContainText(`Trámite ${firstId}`);
  await expect(page.getByTestId('voto')).toContainText('FA');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/revision-cola-1920.png` });

  // The projector, with its shares, on the admin's screen.
  const admin = await signedIn(browser, server, { email: ADMIN.email, viewport: DESKTOP });
  await admin.page.goto('/resultados');
  await admin.page.getByRole('button', { name: 'Modo proyector' }).click();
  const reviewedShare = admin.page.getByTestId('modo-proyector').getByTestId('cuota-revisados');
  await expect(reviewedShare).toContainText('(0)');

  // Gobernador unreadable, with a note; AN and CLEZ right.
  const gobernador = page.getByTestId('foto-gobernador');
  await gobernador.getByRole('button', { name: 'Ilegible' }).click();
  await gobernador.getByLabel('Nota para Gobernador (opcional)').fill('Borrosa: no se leen los votos');
  await page.getByTestId('foto-an').getByRole('button', { name: 'Conforme' }).click();
  await page.getByTestId('foto-clez').getByRole('button', { name: 'Conforme' }).click();
  await page.getByRole('button', { name: 'Guardar y seguir' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'se pidió otra foto' })).toBeAttached();
  await expect(heading(page)).not.toContainText(`Trámite ${firstId}`);

  // The validator's phone asks for another photo, with the note, and takes it.
  const validator = await signedIn(browser, server, {
    email: RECORDS_ACCOUNTS.miranda.email,
    password: RECORDS_PASSWORD,
    viewport: PHONE,
  });
  await validator.page.goto(`/validation/${SLUG}`);
  await validator.page.getByLabel('Buscar', { exact: true }).fill('Ramona Revisión');
  const card = validator.page.getByRole('article', { name: FIRST.nombre });
  await expect(card.getByTestId('repetir-foto')).toContainText('Repetir foto: ilegible');
  await expect(card.getByTestId('repetir-foto')).toContainText('Borrosa: no se leen los votos');
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SHOTS}/tarjeta-repetir-foto-390.png` });
  await validator.page.screenshot({ path: `${SHOTS}/telefono-repetir-foto-390.png` });
  await card.getByLabel(`Repetir foto: ilegible. Subir otra foto Gobernador de ${FIRST.nombre}`).setInputFiles(FIXTURE);
  await expect(card.getByRole('link', { name: `Ver foto Gobernador de ${FIRST.nombre}` })).toBeVisible({
    timeout: 60_000,
  });
  await validator.context.close();

  // Back in the queue, first (its vote is the oldest): only Gobernador left to review. By keyboard.
  await openQueue(page);
  await expect(heading(page)).toContainText(`Trámite ${firstId}`);
  await expect(page.getByTestId('foto-an')).toContainText('Ya revisada: Conforme');
  await page.keyboard.press('c');
  await page.keyboard.press('Enter');
  await expect(heading(page)).not.toContainText(`Trámite ${firstId}`);

  // The projector's reviewed share moved.
  await expect(reviewedShare).toContainText('(1)', { timeout: 30_000 });
  await admin.context.close();
  await reviewer.context.close();
});

test('a reviewer does 50 records by keyboard; the queue at 390 px', async ({ browser }) => {
  test.setTimeout(300_000);
  const reviewer = await signedIn(browser, server, { email: REVIEWER, viewport: DESKTOP });
  const page = reviewer.page;
  await openQueue(page);
  const started = Date.now();
  for (let i = 0; i < BATCH; i++) {
    const before = (await heading(page).textContent()) ?? '';
    await page.keyboard.press('c');
    await page.keyboard.press('c');
    await page.keyboard.press('c');
    await page.keyboard.press('Enter');
    await expect(heading(page)).not.toHaveText(before);
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `Revisión: ${BATCH} trámites por teclado en ${seconds.toFixed(1)} s (${(seconds / BATCH).toFixed(2)} s por trámite)`,
  );
  await reviewer.context.close();

  const phone = await signedIn(browser, server, { email: REVIEWER, viewport: PHONE });
  await openQueue(phone.page);
  await expectNoSeriousA11yViolations(phone.page);
  await phone.page.screenshot({ path: `${SHOTS}/revision-cola-390.png`, fullPage: true });
  await phone.context.close();
});
