import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import DepartmentsAdminPage from './departments-admin-page';

const department = (d: Partial<AdminDepartment> & Pick<AdminDepartment, 'slug' | 'title'>): AdminDepartment => ({
  kind: 'municipality',
  path: `/validation/${d.slug}`,
  members: 0,
  total: 0,
  validated: 0,
  voted: 0,
  ...d,
});

const DEPARTMENTS: AdminDepartment[] = [
  department({ slug: 'resultados', title: 'Resultados', kind: 'page', path: '/resultados' }),
  department({ slug: 'notas', title: 'Notas', kind: 'page', path: '/notas', members: 2 }),
  department({ slug: 'coquivacoa', title: 'Coquivacoa', members: 1, total: 5373, validated: 619, voted: 700 }),
  department({ slug: 'cabimas', title: 'Cabimas' }),
];

describe('DepartmentsAdminPage', () => {
  it('says who sees each department as it is, and tags parishes as parishes', async () => {
    server.use(http.get('*/api/admin/departments', () => HttpResponse.json({ items: DEPARTMENTS })));
    renderWithProviders(<DepartmentsAdminPage bulkAccess={() => null} />);
    const card = async (name: string) => screen.findByRole('article', { name });

    // Admins open every staff page: an empty list does not mean nobody.
    const resultados = await card('Resultados');
    expect(within(resultados).getByText('Página')).toBeInTheDocument();
    expect(resultados).toHaveTextContent('Solo administradores');
    expect(await card('Notas')).toHaveTextContent('Administradores y 2 personas en la lista');
    const coquivacoa = await card('Coquivacoa');
    expect(within(coquivacoa).getByText('Parroquia')).toBeInTheDocument();
    expect(coquivacoa).toHaveTextContent('1 persona en la lista · 619 de 5.373 validados (11,52 %)');
    const cabimas = await card('Cabimas');
    expect(within(cabimas).getByText('Municipio')).toBeInTheDocument();
    expect(cabimas).toHaveTextContent('Nadie en la lista: solo lo ven quienes se agreguen · Sin trámites');
  });

  it('counts a long access list with a thousands dot', async () => {
    // A municipality opened to a whole team: the most one bulk paste adds.
    const emails = Array.from({ length: 1_000 }, (_, i) => ({
      email: `p${i}@lote.org`,
      account: null,
      role: null,
    }));
    server.use(
      http.get('*/api/admin/departments', () => HttpResponse.json({ items: DEPARTMENTS })),
      http.get('*/api/admin/departments/cabimas', () =>
        HttpResponse.json({ ...department({ slug: 'cabimas', title: 'Cabimas', members: 1_000 }), emails }),
      ),
    );
    renderWithProviders(<DepartmentsAdminPage bulkAccess={() => null} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Editar: Cabimas' }));
    expect(await screen.findByRole('heading', { name: 'Lista de acceso (1.000)' })).toBeInTheDocument();
  });

  it('adds a department: the identifier follows the name until it is written, the server’s refusal shows in the form, the new one opens', async () => {
    const sent: unknown[] = [];
    const valmore = department({ slug: 'valmore-rodriguez', title: 'Valmore Rodríguez' });
    server.use(
      http.get('*/api/admin/departments', () => HttpResponse.json({ items: DEPARTMENTS })),
      http.post('*/api/admin/departments', async ({ request }) => {
        const body = (await request.json()) as { slug: string };
        sent.push(body);
        if (body.slug === 'cabimas')
          return HttpResponse.json(
            {
              statusCode: 409,
              error: 'Conflict',
              message: 'Ya existe un departamento con el identificador cabimas: Cabimas.',
            },
            { status: 409 },
          );
        return HttpResponse.json({ ...valmore, emails: [] }, { status: 201 });
      }),
      http.get('*/api/admin/departments/valmore-rodriguez', () => HttpResponse.json({ ...valmore, emails: [] })),
    );
    const user = userEvent.setup();
    renderWithProviders(<DepartmentsAdminPage bulkAccess={() => null} />);
    await user.click(await screen.findByRole('button', { name: 'Nuevo departamento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo departamento' });
    await user.click(within(dialog).getByRole('button', { name: 'Agregar departamento' }));
    expect(within(dialog).getByLabelText('Nombre')).toHaveAccessibleDescription('Indica el título.');
    expect(sent).toEqual([]);

    await user.type(within(dialog).getByLabelText('Nombre'), 'Valmore Rodríguez');
    const slug = within(dialog).getByLabelText('Identificador');
    expect(slug).toHaveValue('valmore-rodriguez');
    expect(within(dialog).getByText('/validation/valmore-rodriguez')).toBeInTheDocument();

    // Written by hand, it no longer follows the name.
    await user.clear(slug);
    await user.type(slug, 'cabimas');
    await user.type(within(dialog).getByLabelText('Nombre'), ' ');
    expect(slug).toHaveValue('cabimas');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar departamento' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Ya existe un departamento con el identificador cabimas: Cabimas.',
    );

    await user.clear(slug);
    await user.type(slug, 'Valmore Rodríguez');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar departamento' }));
    expect(slug).toHaveAccessibleDescription(/El identificador solo lleva minúsculas sin tildes/);
    await user.clear(slug);
    await user.type(slug, 'valmore-rodriguez');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar departamento' }));
    expect(await screen.findByText('Departamento creado: Valmore Rodríguez.')).toBeInTheDocument();
    expect(sent).toEqual([
      { title: 'Valmore Rodríguez', slug: 'cabimas', kind: 'municipality' },
      { title: 'Valmore Rodríguez', slug: 'valmore-rodriguez', kind: 'municipality' },
    ]);
    // It opens, to give it its access list.
    expect(await screen.findByRole('dialog', { name: 'Valmore Rodríguez' })).toHaveAccessibleDescription(
      'Ruta /validation/valmore-rodriguez',
    );
  });
});
