import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { AdminDepartment, AdminDepartmentDetail } from '#shared/features/departments/departments';
import type { AdminUser } from '#shared/features/people/people';
import type { RecordAdmin } from '#shared/features/records-admin/records-admin';
import { dateInTimeZone } from '#shared/platform/format';
import AgendaAdminPage from '#web/features/agenda/components/agenda-admin-page';
import { ChangePasswordForm } from '#web/features/auth/components/change-password-form';
import { CandidateDialog } from '#web/features/candidates/components/candidate-dialog';
import { CreateDepartmentDialog } from '#web/features/departments/components/create-department-dialog';
import { DepartmentDialog } from '#web/features/departments/components/department-dialog';
import ElectionAdminPage from '#web/features/election/components/election-admin-page';
import { NotaEditor } from '#web/features/notas/components/nota-editor';
import { BulkAccessForm } from '#web/features/people/components/bulk-access-form';
import { CreateUserDialog } from '#web/features/people/components/create-user-dialog';
import { UserDepartmentsDialog } from '#web/features/people/components/user-departments-dialog';
import { UserSmsPhonesDialog } from '#web/features/people/components/user-sms-phones-dialog';
import { RecordChangeDialog } from '#web/features/records-admin/components/record-change-dialogs';
import { RecordDialog } from '#web/features/records-admin/components/record-dialog';
import SettingsAdminPage from '#web/features/settings/components/settings-admin-page';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';

/*
 * Every back-office form sends once (decision 066): while its request is on the network its submit button
 * is disabled, and a second submit (a double click, Enter pressed twice) sends nothing. Each form below is
 * submitted twice in the same instant, as a double click does it, with the request held by the test.
 * The last test fails when a form appears that is not in this list.
 */

type Ui = ReturnType<typeof userEvent.setup>;

interface FormCase {
  /** The source file of the form, under src/web. */
  file: string;
  name: string;
  method: 'post' | 'put' | 'patch';
  /** The API path its submit sends to. */
  url: string;
  /** The body of the server's answer, once the test lets it go. */
  answer: unknown;
  render: () => ReactElement;
  /** Makes the form valid; returns its submit button. */
  fill: (ui: Ui) => Promise<HTMLElement>;
  /** Other requests the form needs to show itself. */
  context?: () => void;
}

const TODAY = dateInTimeZone(new Date());
const department = (slug: string, title: string): AdminDepartment => ({
  slug,
  title,
  kind: 'municipality',
  path: `/validation/${slug}`,
  members: 0,
  total: 0,
  validated: 0,
  voted: 0,
});
const CABIMAS = department('cabimas', 'Cabimas');
const CABIMAS_DETAIL: AdminDepartmentDetail = { ...CABIMAS, emails: [] };
const ANA: AdminUser = {
  id: 2,
  email: 'ana@example.org',
  role: 'staff',
  disabled: false,
  lastLoginAt: null,
  createdAt: '2026-11-01T12:00:00.000Z',
  secondFactor: false,
  departments: [],
  smsPhones: [],
};
const RECORD: RecordAdmin = {
  id: 7,
  departmentSlug: 'cabimas',
  departmentTitle: 'Cabimas',
  comunidad: 'Sector Los Olivos',
  nombre: 'Persona 7',
  ubch: 'UBCH 1',
  telefono: '0414-1000007',
  status: 'pendiente',
  votedAt: null,
  votedBy: null,
  validatedBy: null,
  voteRevision: 0,
  code: '',
  votes: [],
  photos: 0,
  validated: false,
  voteCounts: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};
const EVENT = { id: 1, fecha: TODAY, hora24h: '18:30', descripcion: 'Caravana de cierre', lugar: null };

const agendaContext = () =>
  server.use(
    http.get('*/api/agenda/today', () => HttpResponse.json({ date: TODAY, leaderName: 'Líder', events: [] })),
    http.get('*/api/admin/agenda', () => HttpResponse.json({ events: [EVENT] })),
  );
const dialog = (name: string) => screen.findByRole('dialog', { name });

const ELECTION_DAY = {
  phase: 'en_curso',
  closesAt: null,
  closedAt: null,
  lateArrivals: 0,
  graceHours: 12,
  changedAt: null,
  changedBy: null,
  reason: null,
  drill: null,
  received: { votes: 0, photos: 0 },
  now: '2026-11-28T16:00:00.000Z',
  late: [],
};
const ELECTION_STATUS = {
  phase: 'preparacion',
  closesAt: null,
  closedAt: null,
  lateArrivals: 0,
  now: '2026-11-28T16:00:00.000Z',
};
const electionContext = () =>
  server.use(
    http.get('*/api/admin/election', () => HttpResponse.json(ELECTION_DAY)),
    http.get('*/api/admin/election/copy', () =>
      HttpResponse.json({ kind: 'litestream', lagSeconds: 1, answering: true, checkedAt: ELECTION_DAY.now }),
    ),
  );

const FORMS: FormCase[] = [
  {
    file: 'features/election/components/election-admin-page.tsx',
    name: 'Cambiar de fase',
    method: 'put',
    url: '/api/admin/election/phase',
    answer: ELECTION_STATUS,
    context: electionContext,
    render: () => <ElectionAdminPage />,
    fill: async (ui) => {
      const form = await screen.findByRole('form', { name: 'Cambiar de fase' });
      // A change that is sent at once (the close asks twice first, in its own dialogs).
      await ui.selectOptions(within(form).getByLabelText('Nueva fase'), 'preparacion');
      await ui.type(within(form).getByLabelText('Motivo'), 'Vuelta a preparación');
      return within(form).getByRole('button', { name: 'Cambiar fase' });
    },
  },
  {
    file: 'features/election/components/election-admin-page.tsx',
    name: 'Hora de cierre',
    method: 'put',
    url: '/api/admin/election/close',
    answer: ELECTION_STATUS,
    context: electionContext,
    render: () => <ElectionAdminPage />,
    fill: async (ui) => {
      const form = await screen.findByRole('form', { name: 'Hora de cierre' });
      await ui.type(within(form).getByLabelText('Motivo'), 'Hora legal');
      return within(form).getByRole('button', { name: 'Guardar cierre' });
    },
  },
  {
    file: 'features/agenda/components/agenda-event-dialog.tsx',
    name: 'Nuevo evento',
    method: 'post',
    url: '/api/admin/agenda',
    answer: { message: 'Evento creado.', event: { ...EVENT, id: 2, descripcion: 'Mitin' } },
    context: agendaContext,
    render: () => <AgendaAdminPage />,
    fill: async (ui) => {
      await ui.click(await screen.findByRole('button', { name: 'Nuevo evento' }));
      const d = await dialog('Nuevo evento');
      await ui.type(within(d).getByLabelText('Hora (24 horas)'), '19:30');
      await ui.type(within(d).getByLabelText('Descripción'), 'Mitin');
      return within(d).getByRole('button', { name: 'Crear evento' });
    },
  },
  {
    file: 'features/agenda/components/agenda-admin-page.tsx',
    name: 'Copiar día',
    method: 'post',
    url: '/api/admin/agenda/copy',
    answer: { message: 'Se copió 1 evento.', copied: 1, skipped: 0, events: [] },
    context: agendaContext,
    render: () => <AgendaAdminPage />,
    fill: async (ui) => {
      await screen.findByRole('article', { name: 'Caravana de cierre' });
      await ui.click(screen.getByRole('button', { name: 'Copiar día' }));
      return within(await dialog('Copiar día')).getByRole('button', { name: 'Copiar eventos' });
    },
  },
  {
    file: 'features/candidates/components/candidate-dialog.tsx',
    name: 'Nuevo candidato',
    method: 'post',
    url: '/api/admin/candidates',
    answer: { id: 4, code: 'JP', name: 'Juan Pérez', colour: '#1D4ED8', photoUrl: '', position: 4, votes: 0 },
    render: () => <CandidateDialog open candidate={null} count={3} onClose={() => {}} />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Nombre'), 'Juan Pérez');
      await ui.type(screen.getByLabelText('Código'), 'JP');
      return screen.getByRole('button', { name: 'Añadir candidato' });
    },
  },
  {
    file: 'features/people/components/create-user-dialog.tsx',
    name: 'Nueva persona',
    method: 'post',
    url: '/api/admin/users',
    answer: { user: { ...ANA, id: 9, email: 'nueva@example.org' }, password: 'clave-generada-1' },
    render: () => <CreateUserDialog open onClose={() => {}} departments={[CABIMAS]} onCreated={() => {}} />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Correo electrónico'), 'nueva@example.org');
      return screen.getByRole('button', { name: 'Crear cuenta' });
    },
  },
  {
    file: 'features/people/components/user-departments-dialog.tsx',
    name: 'Departamentos de una persona',
    method: 'put',
    url: '/api/admin/users/2/departments',
    answer: { ...ANA, departments: [{ slug: 'cabimas', title: 'Cabimas' }] },
    render: () => <UserDepartmentsDialog user={ANA} departments={[CABIMAS]} onClose={() => {}} />,
    fill: async (ui) => {
      await ui.click(screen.getByRole('checkbox', { name: /Cabimas/ }));
      return screen.getByRole('button', { name: 'Guardar departamentos' });
    },
  },
  {
    file: 'features/people/components/user-sms-phones-dialog.tsx',
    name: 'Números para votar por SMS',
    method: 'put',
    url: '/api/admin/users/2/sms-phones',
    answer: { ...ANA, smsPhones: ['+584141234567'] },
    render: () => <UserSmsPhonesDialog user={ANA} onClose={() => {}} />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Números'), '0414-123 45 67');
      return screen.getByRole('button', { name: 'Guardar números' });
    },
  },
  {
    file: 'features/people/components/bulk-access-form.tsx',
    name: 'Lista de correos (Aplicar)',
    method: 'post',
    url: '/api/admin/access/bulk',
    answer: {
      dryRun: false,
      action: 'grant',
      slug: 'cabimas',
      title: 'Cabimas',
      summary: { total: 1, changed: 1, unchanged: 0, duplicates: 0, invalid: 0 },
      lines: [],
    },
    render: () => <BulkAccessForm departments={[CABIMAS]} fixedSlug="cabimas" />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Correos'), 'ana@example.org');
      return screen.getByRole('button', { name: 'Aplicar' });
    },
  },
  {
    file: 'features/departments/components/department-dialog.tsx',
    name: 'Título de un departamento',
    method: 'patch',
    url: '/api/admin/departments/cabimas',
    answer: { ...CABIMAS_DETAIL, title: 'Cabimas Centro' },
    context: () => server.use(http.get('*/api/admin/departments/cabimas', () => HttpResponse.json(CABIMAS_DETAIL))),
    render: () => <DepartmentDialog slug="cabimas" onClose={() => {}} bulkAccess={() => null} />,
    fill: async (ui) => {
      const title = await screen.findByLabelText('Título');
      await ui.clear(title);
      await ui.type(title, 'Cabimas Centro');
      return screen.getByRole('button', { name: 'Guardar título' });
    },
  },
  {
    file: 'features/departments/components/create-department-dialog.tsx',
    name: 'Nuevo departamento',
    method: 'post',
    url: '/api/admin/departments',
    answer: { ...department('valmore-rodriguez', 'Valmore Rodríguez'), emails: [] },
    render: () => <CreateDepartmentDialog open onClose={() => {}} />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Nombre'), 'Valmore Rodríguez');
      return screen.getByRole('button', { name: 'Agregar departamento' });
    },
  },
  {
    file: 'features/records-admin/components/record-dialog.tsx',
    name: 'Corregir registro',
    method: 'patch',
    url: '/api/admin/records/7',
    answer: { message: 'Registro actualizado.', record: RECORD },
    // The page sends what the dialog hands over; here the dialog sends it itself, the same way.
    render: () => (
      <RecordDialog
        open
        record={RECORD}
        department="cabimas"
        departments={[{ slug: 'cabimas', title: 'Cabimas', total: 1, voted: 0, validated: 0, voided: 0 }]}
        onSave={(body) => fetch('/api/admin/records/7', { method: 'PATCH', body: JSON.stringify(body) })}
        onClose={() => {}}
      />
    ),
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Nombre'), ' Paz');
      return screen.getByRole('button', { name: 'Guardar cambios' });
    },
  },
  {
    file: 'features/records-admin/components/record-change-dialogs.tsx',
    name: 'Anular registro',
    method: 'post',
    url: '/api/admin/records/7/void',
    answer: { message: 'Registro anulado.', record: { ...RECORD, status: 'anulado' } },
    context: () => server.use(http.get('*/api/candidates', () => HttpResponse.json({ candidates: [] }))),
    render: () => <RecordChangeDialog change={{ kind: 'void', record: RECORD }} onClose={() => {}} />,
    fill: async (ui) => {
      const d = await dialog('Anular registro');
      await ui.type(within(d).getByLabelText('Motivo'), 'Registro repetido');
      return within(d).getByRole('button', { name: 'Anular registro' });
    },
  },
  {
    file: 'features/notas/components/nota-editor.tsx',
    name: 'Nueva nota',
    method: 'post',
    url: '/api/admin/notas',
    answer: {
      message: 'Nota guardada.',
      nota: {
        id: 5,
        title: 'Cierre',
        contentHtml: '<p>Texto</p>',
        status: 'borrador',
        publishedAt: null,
        createdAt: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
      },
    },
    render: () => <NotaEditor nota={null} />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Título'), 'Cierre');
      await ui.type(await screen.findByRole('textbox', { name: 'Contenido' }), 'Texto');
      return screen.getByRole('button', { name: 'Guardar borrador' });
    },
  },
  {
    file: 'features/settings/components/settings-admin-page.tsx',
    name: 'Ajustes',
    method: 'put',
    url: '/api/admin/settings',
    answer: {
      campaignName: 'Comando Zulia',
      leaderName: 'Gabriela Urdaneta',
      resultsDenominator: 5373,
      logoutRoute: '/',
      photoMaxMb: 20,
      photoSendOriginals: false,
    },
    context: () =>
      server.use(
        http.get('*/api/admin/settings', () =>
          HttpResponse.json({
            campaignName: 'Comando Zulia',
            leaderName: 'Gabriela Urdaneta',
            resultsDenominator: 5373,
            logoutRoute: '/',
            photoMaxMb: 20,
            photoSendOriginals: false,
          }),
        ),
      ),
    render: () => <SettingsAdminPage />,
    fill: async () => {
      await screen.findByDisplayValue('Comando Zulia');
      return screen.getByRole('button', { name: 'Guardar ajustes' });
    },
  },
  {
    file: 'features/auth/components/change-password-form.tsx',
    name: 'Elige tu contraseña',
    method: 'post',
    url: '/api/auth/password',
    answer: { message: 'Contraseña guardada.' },
    render: () => <ChangePasswordForm email="ana@example.org" />,
    fill: async (ui) => {
      await ui.type(screen.getByLabelText('Contraseña nueva'), 'una-clave-nueva-larga');
      await ui.type(screen.getByLabelText('Repite la contraseña nueva'), 'una-clave-nueva-larga');
      return screen.getByRole('button', { name: 'Guardar contraseña' });
    },
  },
];

describe('every back-office form sends once', () => {
  it.each(FORMS.map((form) => [form.name, form] as const))('%s: a double submit sends one request', async (_, form) => {
    const { gate, release } = createGate();
    let requests = 0;
    form.context?.();
    server.use(
      http[form.method](`*${form.url}`, async () => {
        requests += 1;
        await gate;
        return HttpResponse.json(form.answer as object);
      }),
    );
    const ui = userEvent.setup();
    renderWithProviders(form.render());
    const button = await form.fill(ui);
    expect(button).toBeEnabled();

    // A double click: the second click comes before anything is drawn again.
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(requests).toBe(1));
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(button);

    release();
    // Answered, the form is free again (or its dialog has closed).
    await waitFor(() => expect(button.isConnected && button.hasAttribute('aria-busy')).toBe(false));
    expect(requests).toBe(1);
  });
});

/** The web sources, relative to src/web, without tests. */
function sources(dir = path.resolve(import.meta.dirname, '..'), base = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path.join(dir, entry.name), relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}
const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, '..', file), 'utf8');

/** Forms that send nothing themselves, or are not the back office's, and why. */
const NOT_SENDING_FORMS: Record<string, string> = {
  'features/auth/components/login-page.tsx': 'the sign-in, not a back-office form (decision 051)',
  'features/auth/components/second-factor-form.tsx':
    'the second step of the sign-in, not a back-office form (decision 080)',
  'features/records/components/vote-dialog.tsx': 'the validators’ vote goes to the outbox, once per record',
  'features/notas/components/rich-text-editor.tsx': 'the link and image dialogs change the editor, not the server',
  'features/audit/components/audit-admin-page.tsx': 'a filter, applied as it is typed',
  'features/people/components/people-admin-page.tsx': 'a filter, applied as it is typed',
  'features/sms/components/sms-messages-page.tsx': 'a filter, applied as it is typed',
};

describe('the list above is every form', () => {
  const files = sources();

  it('lists every form on the draft hook', () => {
    const onTheHook = files.filter((f) => f !== 'platform/ui/use-draft-form.ts' && read(f).includes('useDraftForm('));
    expect(onTheHook.sort()).toEqual([...new Set(FORMS.map((f) => f.file))].sort());
  });

  it('leaves no form off the pattern: a form is on the draft hook, sends once by itself, or sends nothing', () => {
    const offThePattern = files.filter((f) => {
      const text = read(f);
      if (!text.includes('<form')) return false;
      return !text.includes('useDraftForm(') && !text.includes('useSendOnce(') && !(f in NOT_SENDING_FORMS);
    });
    expect(offThePattern).toEqual([]);
  });

  it('sends every back-office form with the one submit button', () => {
    const rawSubmit = files.filter(
      (f) => f !== 'platform/ui/submit-button.tsx' && !(f in NOT_SENDING_FORMS) && read(f).includes('type="submit"'),
    );
    expect(rawSubmit).toEqual([]);
  });

  it('writes every select as a SelectField, its label tied to it', () => {
    const rawSelect = files.filter((f) => f !== 'platform/ui/fields.tsx' && read(f).includes('<select'));
    expect(rawSelect).toEqual([]);
  });

  it('leaves the message of a failed change to the default toast (or to the screen that shows it)', () => {
    const handWritten = files.filter((f) => /toast\.error\(\w+\.message/.test(read(f)));
    expect(handWritten).toEqual([]);
  });
});
