import { getDefaultNormalizer, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmationScreen } from './confirmation-screen';
import { LoadingCover } from './loading-cover';
import { ConfirmDialog } from './modal';
import { Pager } from './pager';

describe('LoadingCover', () => {
  it('covers the screen in #A31D1D with the spec messages and an optional progress bar', () => {
    render(<LoadingCover title="Validando" progress={42} />);
    const cover = screen.getByTestId('loading-cover');
    expect(cover.className).toContain('bg-[#A31D1D]');
    expect(screen.getByText('Validando')).toBeInTheDocument();
    expect(screen.getByText('Por favor espere, no cierre la ventana')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
    // Written as every percentage is: a no-break space keeps the sign with its number.
    const exact = getDefaultNormalizer({ collapseWhitespace: false });
    expect(screen.getByText('42\u00a0%', { normalizer: exact })).toBeInTheDocument();
  });
  it("says 'Confirmando' by default, without a progress bar", () => {
    render(<LoadingCover />);
    expect(screen.getByText('Confirmando')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});

describe('ConfirmationScreen', () => {
  it('keeps simple formatting, drops anything active, and links home', () => {
    render(
      <MemoryRouter>
        <ConfirmationScreen
          messageHtml={
            'Municipio <strong>Completado</strong><img src=x onerror="alert(1)"><script>alert(1)</script><a href="javascript:x">y</a>'
          }
        />
      </MemoryRouter>,
    );
    const heading = screen.getByRole('heading');
    expect(heading.innerHTML).toBe('Municipio <strong>Completado</strong>y');
    expect(screen.getByRole('link', { name: 'Ir a inicio' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('img', { name: 'Mapa del estado Zulia' })).toBeInTheDocument();
  });
});

describe('Pager', () => {
  it('writes every number of the range with a thousands dot', () => {
    render(<Pager page={21} pageSize={50} total={5373} onPage={() => {}} noun="registros" />);
    expect(screen.getByText('Mostrando 1.001–1.050 de 5.373 registros')).toBeInTheDocument();
  });
});

describe('ConfirmDialog', () => {
  it('can be closed with Escape or Cancelar while its request is on the network; confirming waits', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        open
        pending
        title="Eliminar nota"
        message="¿Eliminar?"
        confirmLabel="Eliminar"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar nota' });
    expect(screen.getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(dialog).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
