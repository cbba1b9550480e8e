import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { RecordPhoneValue } from './records-admin-page';

describe("Registros' phone", () => {
  it("offers 'Mostrar' on a masked phone and shows the whole one the server answers", async () => {
    server.use(http.post('*/api/admin/records/7/phone', () => HttpResponse.json({ telefono: '0414-6123457' })));
    renderWithProviders(<RecordPhoneValue id={7} masked="•••• •• 34 57" name="Yusmary Chourio" />);
    await userEvent.click(screen.getByRole('button', { name: 'Mostrar el teléfono de Yusmary Chourio' }));
    expect(await screen.findByText('0414-6123457')).toBeInTheDocument();
  });

  it("offers no 'Mostrar' and no empty line for a phone 'Borrar datos personales' took", () => {
    renderWithProviders(<RecordPhoneValue id={7} masked="" name="Y. C." />);
    expect(screen.queryByRole('button', { name: /Mostrar/ })).not.toBeInTheDocument();
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});
