import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ChainState } from '#shared/features/evidence/evidence';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import ChainPanel from './chain-panel';
import EvidenceKeyCard from './evidence-key-card';

const FINGERPRINT = 'ab'.repeat(32);
const NEVER: ChainState = { headSeq: 12, lastCheck: null, keyFingerprint: FINGERPRINT };
const CHECKED: ChainState = {
  ...NEVER,
  // 9:41 p. m. in Caracas.
  lastCheck: {
    at: '2026-11-27T01:41:00.000Z',
    ok: true,
    verifiedUpTo: 12,
    lastSeq: 12,
    problems: 0,
    firstProblems: [],
  },
};

describe('ChainPanel', () => {
  it('says how far the chain was verified, verifies it on demand and offers the package per municipality', async () => {
    let checks = 0;
    server.use(
      http.get('*/api/admin/evidence/chain', () => HttpResponse.json(NEVER)),
      http.post('*/api/admin/evidence/chain/check', () => {
        checks += 1;
        return HttpResponse.json(CHECKED);
      }),
    );
    renderWithProviders(<ChainPanel municipalities={[{ slug: 'cabimas', title: 'Cabimas' }]} />);
    expect(await screen.findByText('La cadena aún no se ha verificado.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Verificar ahora' }));
    expect(await screen.findByText('Cadena verificada hasta el registro 12, 9:41 p. m.')).toBeInTheDocument();
    expect(checks).toBe(1);

    const link = screen.getByRole('link', { name: 'Descargar paquete de evidencias' });
    expect(link).toHaveAttribute('href', '/api/admin/evidence/package.zip');
    await userEvent.selectOptions(screen.getByLabelText('Municipio del paquete'), 'cabimas');
    expect(link).toHaveAttribute('href', '/api/admin/evidence/package.zip?department=cabimas');
  });

  it('lists the first problems of a check that failed', async () => {
    server.use(
      http.get('*/api/admin/evidence/chain', () =>
        HttpResponse.json({
          ...CHECKED,
          lastCheck: {
            ...CHECKED.lastCheck,
            ok: false,
            problems: 1,
            verifiedUpTo: 4,
            firstProblems: ['Falta el registro 5 de la cadena (borrado): el 6 apunta a otro anterior.'],
          },
        }),
      ),
    );
    renderWithProviders(<ChainPanel municipalities={[]} />);
    expect(
      await screen.findByText('Cadena con 1 problema: verificada hasta el registro 4, 9:41 p. m.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('Falta el registro 5 de la cadena');
  });
});

describe('EvidenceKeyCard', () => {
  it('shows the fingerprint of the signing key', async () => {
    server.use(http.get('*/api/admin/evidence/chain', () => HttpResponse.json(NEVER)));
    renderWithProviders(<EvidenceKeyCard />);
    expect(await screen.findByText(FINGERPRINT)).toBeInTheDocument();
  });
});
