import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FieldView } from '#shared/features/field/field';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { FieldPage } from './field-page';

const AT = '2026-11-28T23:00:00.000Z';

describe('FieldPage after the close', () => {
  it('says, per validator, how many waiting items the server heard of before the close', async () => {
    const view: FieldView = {
      slug: 'cabimas',
      title: 'Cabimas',
      generatedAt: AT,
      stuckAfterMinutes: 10,
      validators: [
        {
          email: 'ana@example.org',
          lastSeenAt: AT,
          waiting: 3,
          oldestWaitingAt: AT,
          lastSuccessAt: null,
          lastError: null,
          stuck: false,
          devices: 1,
          heardBeforeClose: 2,
        },
      ],
    };
    server.use(
      http.get('*/api/field', () =>
        HttpResponse.json({
          generatedAt: AT,
          stuckAfterMinutes: 10,
          departments: [{ slug: 'cabimas', title: 'Cabimas', validators: 1, withWaiting: 1, waiting: 3, stuck: 0 }],
          validators: [],
        }),
      ),
      http.get('*/api/field/cabimas', () => HttpResponse.json(view)),
    );
    renderWithProviders(<FieldPage slug="cabimas" />);
    const table = await screen.findByRole('table', { name: 'Validadores de Cabimas' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('32 de antes del cierre');
  });
});
