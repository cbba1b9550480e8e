import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { EnrolForm } from './second-factor-form';

const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkl-mn${String(i).padStart(2, '0')}`);

describe('EnrolForm: the recovery codes', () => {
  it('shows each code whole and copies them all with one button', async () => {
    server.use(
      http.post('*/api/auth/second-factor/enrol', () =>
        HttpResponse.json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg/>' }),
      ),
      http.post('*/api/auth/second-factor/confirm', () => HttpResponse.json({ recoveryCodes: CODES })),
    );
    const user = userEvent.setup();
    renderWithProviders(<EnrolForm email="jefa@example.org" onDone={() => {}} />);
    await user.type(await screen.findByLabelText('Código de la aplicación'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));

    const list = await screen.findByRole('list', { name: 'Códigos de recuperación' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(CODES);
    // Never broken inside a code, whatever the width of the phone.
    for (const li of items) expect(li).toHaveClass('whitespace-nowrap');

    await user.click(screen.getByRole('button', { name: 'Copiar los códigos' }));
    // user-event's own clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));
    expect(await screen.findByRole('status')).toHaveTextContent('Copiados: pégalos donde los vayas a guardar.');
  });
});
