// Votes by SMS, against a server of its own and the gateway's stand-in: a validator's SMS, delivered as
// the Android gateway's signed webhook, is a vote like the app's (the projector counts it live, the
// validator's card shows it) and is answered; 'Mensajes' lists both messages (docs/decisions/084).
import { expect, test } from '@playwright/test';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createAccountsService } from '#server/features/people/accounts.service';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import {
  type SmsGatewayContractServer,
  startSmsGatewayContractServer,
} from '#tests/support/sms-gateway-contract-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { type OwnServer, startOwnServer } from './support/own-server';
import { signedInContext } from './support/sessions';

const ADMIN = 'jefa.sms@comando.example';
const VALIDATOR = 'validadora.sms@comando.example';
const PASSWORD = 'clave-de-sms-12345';
const SLUG = 'cabimas';
const VALIDATOR_PHONE = '+584141234567';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1920, height: 1080 };

test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let gateway: SmsGatewayContractServer | undefined;
let origin: string;
let code: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  gateway = await startSmsGatewayContractServer();
  own = await startOwnServer({
    name: 'de SMS',
    admin: ADMIN,
    validator: { email: VALIDATOR, slug: SLUG },
    password: PASSWORD,
    seed: async (db, now) => {
      await createAccountsService(db.kysely, () => now).setSmsPhones(VALIDATOR, ['0414-123 45 67'], {
        email: 'e2e',
        ip: null,
      });
      await seedSyntheticResults(db.kysely, { departments: [SLUG], unvoted: 5, label: 'Votante', now });
      const records = createRecordsRepository(db.kysely);
      const cabimas = (await records.listMunicipalities()).find((d) => d.slug === SLUG);
      const [id] = await records.insertMany(
        [
          {
            departmentId: cabimas?.id as number,
            comunidad: 'La Rosa',
            nombre: 'María Pérez',
            ubch: 'UBCH 1',
            telefono: '0414-5550000',
          },
        ],
        now,
      );
      code = (await records.findById(id as number))?.short_code as string;
    },
    env: {
      SMS_GATEWAY_URL: gateway.url,
      SMS_GATEWAY_LOGIN: gateway.login,
      SMS_GATEWAY_PASSWORD: gateway.password,
      SMS_WEBHOOK_SIGNING_KEY: gateway.signingKey,
      SMS_GATEWAY_PHONE: '0414-555 66 77',
    },
  });
  origin = own.origin;
});

test.afterAll(async () => {
  await own?.stop();
  await gateway?.close();
});

test('an SMS vote shows on the projector live and on the validator’s card, and is answered', async ({ browser }) => {
  const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport: DESKTOP });
  const validator = await signedInContext(browser, { origin, email: VALIDATOR, password: PASSWORD, viewport: PHONE });
  try {
    await admin.page.goto('/resultados?proyector=1');
    const projector = admin.page.getByTestId('modo-proyector');
    await expect(projector.getByTestId('estado-en-vivo')).toHaveText('En vivo');
    const votes = projector.getByTestId('candidato-LC').getByTestId('votos');
    const before = Number((await votes.textContent())?.replace(/\D/g, ''));

    await validator.page.goto(`/validation/${SLUG}`);
    await validator.page.getByLabel('Buscar').fill('María Pérez');
    const card = validator.page.getByRole('article', { name: 'María Pérez' });
    await expect(card.getByTestId('codigo-sms')).toHaveText(`Código SMS ${code}`);
    await expect(card.getByRole('button', { name: 'Votar: María Pérez' })).toBeVisible();

    // Typed as people type it: lower case, a comma, two spaces.
    const sentAt = Date.now();
    const answer = await gateway!.deliver(`${origin}/api/sms/webhook`, {
      from: VALIDATOR_PHONE,
      text: `v ${code.toLowerCase()}  fa, lc`,
    });
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'aplicado' } });
    await expect(votes).toHaveText(before === 0 ? '1 voto' : `${(before + 1).toLocaleString('da-DK')} votos`);
    // How long the projector took is noted for the report; how fast is the benchmark's business.
    test.info().annotations.push({ type: 'proyector', description: `${Date.now() - sentAt} ms después del webhook` });

    await validator.page.reload();
    await validator.page.getByLabel('Buscar').fill('María Pérez');
    await expect(card.getByRole('button', { name: 'María Pérez: votado' })).toContainText('FA, LC');
    await expect(card.getByTestId('quien-marco')).toContainText(VALIDATOR);
    await gateway!.whenSent(1);
    expect(gateway!.sent[0]).toMatchObject({
      phoneNumbers: [VALIDATOR_PHONE],
      message: 'Registrado: María P., Cabimas: FA, LC',
    });
  } finally {
    await admin.context.close();
    await validator.context.close();
  }
});

for (const viewport of [PHONE, DESKTOP]) {
  test(`Mensajes lists the SMS and its answer at ${viewport.width} px, filtered by number`, async ({ browser }) => {
    await gateway!.deliver(`${origin}/api/sms/webhook`, { from: '+584165550000', text: 'hola' });
    const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport });
    try {
      const page = admin.page;
      await page.goto('/admin/mensajes');
      await expect(page.getByRole('heading', { name: 'Mensajes', level: 2 })).toBeVisible();
      // On a wide screen every section's tab is in sight (on a phone the row scrolls).
      const tab = page
        .getByRole('navigation', { name: 'Secciones de administración' })
        .getByRole('link', { name: 'Mensajes' });
      if (viewport === DESKTOP) await expect(tab).toBeInViewport();
      const list = page.getByRole('list', { name: 'Mensajes SMS' });
      await expect(
        list.getByRole('listitem').filter({ hasText: 'Registrado: María P., Cabimas: FA, LC' }),
      ).toBeVisible();
      await expect(list.getByRole('listitem').filter({ hasText: 'Número desconocido' }).first()).toBeVisible();
      // The state of SMS above the list: the gateway answers, the number to text, the last message.
      const panel = page.getByRole('region', { name: 'Estado de los SMS' });
      await expect(panel.getByText('Responde', { exact: true })).toBeVisible();
      await expect(panel).toContainText('Número para votar0414-555 66 77');
      await expect(panel).toContainText('de 0416-555 00 00: Rechazado');
      // Nothing wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoSeriousA11yViolations(page);

      await page.getByLabel('Número').fill('0414-123 45 67');
      await expect(list.getByRole('listitem').filter({ hasText: 'Número desconocido' })).toHaveCount(0);
      await expect(list.getByRole('listitem').filter({ hasText: `v ${code.toLowerCase()}` })).toBeVisible();
      await page.getByLabel('Municipio o parroquia').selectOption(SLUG);
      await expect(list.getByRole('listitem')).toHaveCount(2);
      await page.screenshot({ path: test.info().outputPath(`mensajes-${viewport.width}.png`), fullPage: true });
    } finally {
      await admin.context.close();
    }
  });
}

test('Registros finds a record by its SMS code, typed as people type it, and shows the code', async ({ browser }) => {
  const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport: PHONE });
  try {
    const page = admin.page;
    await page.goto('/admin/registros');
    // Lower case, a dash in the middle: the search reads it as the code.
    await page.getByLabel('Buscar').fill(`${code.slice(0, 3)}-${code.slice(3)}`.toLowerCase());
    const list = page.getByRole('list', { name: 'Registros de todos los municipios y parroquias' });
    await expect(list.getByRole('article')).toHaveCount(1);
    const card = list.getByRole('article', { name: 'María Pérez' });
    await expect(card.getByTestId('codigo-sms')).toHaveText(code);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath('registros-codigo-sms-390.png'), fullPage: true });
  } finally {
    await admin.context.close();
  }
});
