// Temporary: screenshots of a fresh `npm start` as a user would see it (not committed).
import { chromium, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

const [origin, email, password, validatorEmail, validatorPassword] = process.argv.slice(2) as string[];
const out = '/tmp/shots';
const code = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret) });

async function signIn(page: Page, who: string, pass: string) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Correo electrónico').fill(who);
  await page.getByLabel('Contraseña', { exact: true }).fill(pass);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForTimeout(1500);
  if (await page.getByRole('heading', { name: 'Configura el segundo factor' }).isVisible()) {
    await page.screenshot({ path: `${out}/2fa-alta.png`, fullPage: true });
    const secret = (await page.getByTestId('clave-segundo-factor').textContent()) ?? '';
    await page.getByRole('textbox', { name: 'Código de la aplicación' }).fill(code(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('button', { name: 'Ya los guardé, continuar' }).click();
    await page.waitForTimeout(1000);
  }
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [label, width, height] of [
  ['390', 390, 844],
  ['1920', 1920, 1080],
] as const) {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'es-VE' });
  const page = await context.newPage();
  await page.goto(origin);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `${out}/${label}-inicio.png` });
  await signIn(page, email, password);
  for (const [name, path] of [
    ['resultados', '/resultados'],
    ['campo', '/campo'],
    ['registros', '/admin/registros'],
    ['auditoria', '/admin/auditoria'],
    ['ajustes', '/admin/ajustes'],
    ['cuenta', '/cuenta'],
  ] as const) {
    await page.goto(`${origin}${path}`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${out}/${label}-${name}.png`, fullPage: label === '390' });
  }
  await context.close();
  if (validatorEmail && label === '390') {
    const v = await browser.newContext({ viewport: { width, height }, locale: 'es-VE' });
    const vp = await v.newPage();
    await signIn(vp, validatorEmail, validatorPassword as string);
    await vp.waitForTimeout(1500);
    await vp.screenshot({ path: `${out}/${label}-validador.png` });
    await v.close();
  }
}
await browser.close();
