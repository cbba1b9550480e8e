import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminSettings } from '#shared/features/settings/settings';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import SettingsAdminPage from './settings-admin-page';

const CURRENT: AdminSettings = {
  campaignName: 'Comando Zulia',
  leaderName: 'Gabriela Urdaneta',
  resultsDenominator: 5373,
  logoutRoute: '/',
  photoMaxMb: 20,
  photoSendOriginals: false,
  requireSecondFactorAdmins: false,
};

function api() {
  const sent: unknown[] = [];
  server.use(
    http.get('*/api/admin/settings', () => HttpResponse.json(CURRENT)),
    http.put('*/api/admin/settings', async ({ request }) => {
      const body = (await request.json()) as AdminSettings;
      sent.push(body);
      return HttpResponse.json(body);
    }),
  );
  return sent;
}

const replace = async (label: string, value: string) => {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
};

describe('SettingsAdminPage', () => {
  it('shows the current values with what each one is for', async () => {
    api();
    renderWithProviders(<SettingsAdminPage />);
    expect(await screen.findByLabelText('Nombre de la campaña')).toHaveValue('Comando Zulia');
    expect(screen.getByLabelText('Denominador de resultados')).toHaveValue('5373');
    expect(screen.getByLabelText('Tamaño máximo de foto (MB)')).toHaveAccessibleDescription(
      'Para las fotos de boletas y de candidatos; entre 1 y 50 MB.',
    );
  });

  it('explains each wrong value next to its field and sends nothing', async () => {
    const sent = api();
    renderWithProviders(<SettingsAdminPage />);
    await screen.findByLabelText('Nombre de la campaña');
    await replace('Nombre de la campaña', '');
    await replace('Denominador de resultados', '0');
    await replace('Ruta al cerrar sesión', 'https://otro.sitio');
    await replace('Tamaño máximo de foto (MB)', '200');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar ajustes' }));
    expect(await screen.findByText('Indica el nombre de la campaña.')).toBeInTheDocument();
    expect(screen.getByText('El denominador debe ser un número entero positivo.')).toBeInTheDocument();
    expect(
      screen.getByText('La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.'),
    ).toBeInTheDocument();
    expect(screen.getByText('El tamaño máximo de foto debe ser un número entero entre 1 y 50 MB.')).toBeInTheDocument();
    expect(screen.getByLabelText('Denominador de resultados')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
  });

  it('saves numbers as numbers and says so', async () => {
    const sent = api();
    renderWithProviders(<SettingsAdminPage />);
    await screen.findByLabelText('Nombre de la campaña');
    await replace('Nombre del líder', 'Marta Fuenmayor');
    await replace('Denominador de resultados', '6000');
    await replace('Ruta al cerrar sesión', '/agenda');
    await replace('Tamaño máximo de foto (MB)', '8');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar ajustes' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          campaignName: 'Comando Zulia',
          leaderName: 'Marta Fuenmayor',
          resultsDenominator: 6000,
          logoutRoute: '/agenda',
          photoMaxMb: 8,
          photoSendOriginals: false,
          requireSecondFactorAdmins: false,
        },
      ]),
    );
    expect(await screen.findByText('Ajustes guardados')).toBeInTheDocument();
  });

  it('lets admins choose that phones send original photos instead of right-sized ones', async () => {
    const sent = api();
    renderWithProviders(<SettingsAdminPage />);
    const box = await screen.findByRole('checkbox', { name: 'Enviar las fotos de boletas originales' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/JPEG de hasta 2560 px por lado/);
    await userEvent.click(box);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar ajustes' }));
    await waitFor(() => expect(sent).toEqual([{ ...CURRENT, photoSendOriginals: true }]));
  });
});
