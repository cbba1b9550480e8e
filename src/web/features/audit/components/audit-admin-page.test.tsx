import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '#shared/features/audit/audit';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import AuditAdminPage from './audit-admin-page';

const ENTRIES: AuditEntry[] = [
  {
    id: 2,
    at: '2026-11-22T14:05:00.000Z',
    actorEmail: 'jefa@example.org',
    action: 'user.disable',
    departmentSlug: null,
    target: 'ana@example.org',
    ip: '10.0.0.1',
    details: '{"sessionsRevoked":2}',
  },
  {
    id: 1,
    at: '2026-11-22T13:00:00.000Z',
    actorEmail: 'ana@example.org',
    action: 'record.vote',
    departmentSlug: 'cabimas',
    target: 'record:7',
    ip: null,
    details: null,
  },
  {
    id: 4,
    at: '2026-11-22T13:30:00.000Z',
    actorEmail: 'ana@example.org',
    action: 'record.vote',
    departmentSlug: 'cabimas',
    target: 'record:8',
    ip: null,
    details: JSON.stringify({ candidates: ['LC'], channel: 'sms' }),
  },
  {
    id: 3,
    at: '2026-11-22T15:00:00.000Z',
    actorEmail: 'jefa@example.org',
    action: 'record.vote.correct',
    departmentSlug: 'cabimas',
    target: 'record:7',
    ip: null,
    details: JSON.stringify({
      before: { candidates: ['FA'], votedBy: 'ana@example.org' },
      after: { candidates: [] },
      reason: 'La boleta no marca a nadie',
    }),
  },
];

const DEPARTMENTS: AdminDepartment[] = [
  {
    slug: 'cabimas',
    title: 'Cabimas',
    kind: 'municipality',
    path: '/validation/cabimas',
    members: 1,
    total: 0,
    voted: 0,
    validated: 0,
  },
];

function api() {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/admin/audit', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({ items: ENTRIES, total: 120, page: 1, pageSize: 50 });
    }),
  );
  return queries;
}

describe('AuditAdminPage', () => {
  it('shows who did what, where and when, in words, with the details on demand', async () => {
    api();
    renderWithProviders(<AuditAdminPage departments={DEPARTMENTS} />);
    const rows = await screen.findByRole('list', { name: 'Registros de auditoría' });
    const [disable, vote, smsVote, correction] = within(rows).getAllByRole('listitem');
    expect(disable).toHaveTextContent('Cuenta desactivada');
    expect(disable).toHaveTextContent('22 nov 2026, 10:05 a. m.');
    expect(disable).toHaveTextContent('Persona ana@example.org');
    expect(disable).not.toHaveTextContent('user.disable');
    // The details in words: each key with its Spanish label, each value as people write it.
    const revoked = within(disable as HTMLElement).getByText('Sesiones cerradas');
    expect(revoked.nextElementSibling).toHaveTextContent('2');
    const details = within(correction as HTMLElement).getByRole('group');
    expect(details).toHaveTextContent(
      'AntesCandidatosFAVotado porana@example.orgDespuésCandidatosningunoMotivoLa boleta no marca a nadie',
    );
    expect(details).not.toHaveTextContent(/before|votedBy|reason|\[/);
    expect(vote).toHaveTextContent('Voto registrado');
    expect(vote).not.toHaveTextContent('por SMS');
    // A vote that came by SMS says so, in its title and its details.
    expect(smsVote).toHaveTextContent('Voto registrado por SMS');
    expect(within(smsVote as HTMLElement).getByRole('group')).toHaveTextContent('PorSMS');
    expect(vote).toHaveTextContent('Trámite 7');
    expect(vote).not.toHaveTextContent(/record:7|record\.vote/);
    expect(await within(vote as HTMLElement).findByText('Departamento: Cabimas')).toBeInTheDocument();
    expect(screen.getByText('Mostrando 1–50 de 120 registros')).toBeInTheDocument();
  });

  it('asks the server with the filters and downloads the CSV of the same rows', async () => {
    const queries = api();
    renderWithProviders(<AuditAdminPage departments={DEPARTMENTS} />);
    await screen.findByRole('list', { name: 'Registros de auditoría' });
    await userEvent.type(screen.getByLabelText('Persona'), 'ana');
    await userEvent.selectOptions(screen.getByLabelText('Acción'), 'user*');
    await userEvent.selectOptions(await screen.findByLabelText('Departamento'), 'cabimas');
    await userEvent.type(screen.getByLabelText('Desde'), '2026-11-01');
    await waitFor(() =>
      expect(Object.fromEntries(queries.at(-1) ?? [])).toEqual({
        person: 'ana',
        action: 'user*',
        department: 'cabimas',
        from: '2026-11-01',
        page: '1',
      }),
    );
    expect(screen.getByRole('link', { name: 'Descargar CSV' })).toHaveAttribute(
      'href',
      '/api/admin/audit.csv?person=ana&action=user*&department=cabimas&from=2026-11-01',
    );
  });

  it('says when the dates are the wrong way round and keeps the last valid result', async () => {
    const queries = api();
    renderWithProviders(<AuditAdminPage departments={DEPARTMENTS} />);
    await screen.findByRole('list', { name: 'Registros de auditoría' });
    await userEvent.type(screen.getByLabelText('Desde'), '2026-11-20');
    await userEvent.type(screen.getByLabelText('Hasta'), '2026-11-10');
    expect(await screen.findByText('La fecha inicial no puede ser posterior a la final.')).toBeInTheDocument();
    expect(screen.getByLabelText('Hasta')).toHaveAttribute('aria-invalid', 'true');
    expect(queries.some((q) => q.get('to') === '2026-11-10')).toBe(false);
  });
});
