import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminDepartment } from '#shared/features/departments/departments';
import type { SmsMessage, SmsStatus } from '#shared/features/sms/sms';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import SmsMessagesPage from './sms-messages-page';

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

const message = (over: Partial<SmsMessage>): SmsMessage => ({
  id: 1,
  direction: 'in',
  phone: '+584141234567',
  userEmail: 'ana@example.org',
  department: { slug: 'cabimas', title: 'Cabimas' },
  body: 'V W79F5Y FA LC',
  outcome: 'aplicado',
  reason: null,
  replyTo: null,
  createdAt: '2026-12-06T15:00:00.000Z',
  ...over,
});

const OFF: SmsStatus = {
  configured: false,
  phone: null,
  gateway: null,
  checkedAt: '2026-12-06T15:00:00.000Z',
  lastReceived: null,
};

function api(pages: SmsMessage[][], status: SmsStatus = OFF) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/admin/sms/status', () => HttpResponse.json(status)),
    http.get('*/api/admin/sms/messages', ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      const index = params.get('before') ? 1 : 0;
      return HttpResponse.json({ items: pages[index] ?? [], nextCursor: index === 0 && pages.length > 1 ? 3 : null });
    }),
  );
  return queries;
}

describe('SmsMessagesPage', () => {
  it('lists what was received and answered, with the outcome in words, and loads older ones on demand', async () => {
    api([
      [
        message({
          id: 4,
          direction: 'out',
          body: 'Registrado: María P., Cabimas: FA, LC',
          outcome: 'enviado',
          replyTo: 3,
        }),
        message({ id: 3 }),
      ],
      [
        message({
          id: 2,
          phone: '+584165550000',
          userEmail: null,
          department: null,
          body: 'hola',
          outcome: 'rechazado',
          reason: 'Número desconocido',
        }),
      ],
    ]);
    renderWithProviders(<SmsMessagesPage departments={DEPARTMENTS} />);
    const list = await screen.findByRole('list', { name: 'Mensajes SMS' });
    const [reply, received] = within(list).getAllByRole('listitem');
    expect(reply).toHaveTextContent('Enviado a +584141234567');
    expect(reply).toHaveTextContent('Registrado: María P., Cabimas: FA, LC');
    expect(received).toHaveTextContent('Recibido de +584141234567');
    expect(received).toHaveTextContent('ana@example.orgCabimas');
    expect(received).toHaveTextContent('Aplicado');
    expect(received).toHaveTextContent('6 dic 2026, 11:00 a. m.');

    await userEvent.click(screen.getByRole('button', { name: 'Cargar más mensajes' }));
    expect(await within(list).findByText('hola')).toBeInTheDocument();
    const refused = within(list).getAllByRole('listitem')[2] as HTMLElement;
    expect(refused).toHaveTextContent('Número desconocido');
    expect(refused).toHaveTextContent('Rechazado');
  });

  it('asks the server by municipality and by number as typed', async () => {
    const queries = api([[message({})]]);
    renderWithProviders(<SmsMessagesPage departments={DEPARTMENTS} />);
    await screen.findByRole('list', { name: 'Mensajes SMS' });
    await userEvent.selectOptions(screen.getByLabelText('Municipio o parroquia'), 'cabimas');
    await userEvent.type(screen.getByLabelText('Número'), '0414-123 45 67');
    await waitFor(() =>
      expect(Object.fromEntries(queries.at(-1) ?? [])).toEqual({ department: 'cabimas', phone: '0414-123 45 67' }),
    );
  });

  it('says SMS votes are off, and that cards hide the code, when no gateway is configured', async () => {
    api([[]]);
    renderWithProviders(<SmsMessagesPage departments={DEPARTMENTS} />);
    const panel = await screen.findByRole('region', { name: 'Estado de los SMS' });
    expect(await within(panel).findByText('Apagados')).toBeInTheDocument();
    expect(panel).toHaveTextContent('falta configurar la pasarela');
    expect(panel).toHaveTextContent('las tarjetas de los validadores no muestran el código SMS');
  });

  it('shows the gateway answering, the number to text and the last message received', async () => {
    api([[]], {
      configured: true,
      phone: '+584145556677',
      gateway: { answering: true, reason: null },
      checkedAt: '2026-12-06T15:00:00.000Z',
      lastReceived: {
        at: '2026-12-06T14:58:00.000Z',
        phone: '+584141234567',
        userEmail: 'ana@example.org',
        outcome: 'aplicado',
      },
    });
    renderWithProviders(<SmsMessagesPage departments={DEPARTMENTS} />);
    const panel = await screen.findByRole('region', { name: 'Estado de los SMS' });
    expect(await within(panel).findByText('Responde')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Número para votar0414-555 66 77');
    expect(panel).toHaveTextContent('6 dic 2026, 10:58 a. m., de 0414-123 45 67 (ana@example.org): Aplicado');
  });

  it('says the gateway does not answer, and why', async () => {
    api([[]], {
      configured: true,
      phone: null,
      gateway: { answering: false, reason: 'La pasarela respondió 500' },
      checkedAt: '2026-12-06T15:00:00.000Z',
      lastReceived: null,
    });
    renderWithProviders(<SmsMessagesPage departments={DEPARTMENTS} />);
    const panel = await screen.findByRole('region', { name: 'Estado de los SMS' });
    expect(await within(panel).findByText('No responde')).toBeInTheDocument();
    expect(panel).toHaveTextContent('La pasarela respondió 500');
    expect(panel).toHaveTextContent('Sin indicar: ponlo en SMS_GATEWAY_PHONE');
    expect(panel).toHaveTextContent('Ninguno todavía.');
  });

  it('says so when no message matches', async () => {
    api([[]]);
    renderWithProviders(<SmsMessagesPage departments={DEPARTMENTS} />);
    expect(await screen.findByText('No hay mensajes con estos filtros.')).toBeInTheDocument();
  });
});
