import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TextField } from './fields';
import { useDraftForm } from './use-draft-form';

const schema = z.object({
  nombre: z.string().trim().min(1, 'Escribe el nombre.'),
  telefono: z.string().regex(/^\d{4}-\d{7}$/, 'El teléfono debe ser como 0412-1234567.'),
});

function Form({ onValid, start }: { onValid: (body: z.output<typeof schema>) => void; start: string }) {
  const form = useDraftForm(schema, () => ({ nombre: start, telefono: '' }));
  return (
    <form noValidate onSubmit={form.submit(onValid)}>
      <TextField label="Nombre" {...form.field('nombre')} />
      <TextField label="Teléfono" {...form.field('telefono')} />
      <button type="button" onClick={() => form.reset({ nombre: 'Otra', telefono: '' })}>
        Otro
      </button>
      <button type="submit">Guardar</button>
    </form>
  );
}

describe('useDraftForm', () => {
  it('shows each field its first error from the shared schema and hands over only a valid, parsed body', () => {
    const onValid = vi.fn();
    render(<Form onValid={onValid} start="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByText('Escribe el nombre.')).toBeInTheDocument();
    expect(screen.getByLabelText('Teléfono')).toHaveAccessibleDescription('El teléfono debe ser como 0412-1234567.');

    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: '  Ana Pérez ' } });
    fireEvent.change(screen.getByLabelText('Teléfono'), { target: { value: '0412-1234567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onValid).toHaveBeenCalledWith({ nombre: 'Ana Pérez', telefono: '0412-1234567' });
    expect(screen.queryByText('Escribe el nombre.')).not.toBeInTheDocument();
  });

  it('starts again from another draft, without the old errors', () => {
    render(<Form onValid={vi.fn()} start="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(screen.getByText('Escribe el nombre.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Otro' }));
    expect(screen.getByLabelText('Nombre')).toHaveValue('Otra');
    expect(screen.queryByText('Escribe el nombre.')).not.toBeInTheDocument();
  });
});

const passwordSchema = z.object({
  password: z.string().min(6, 'Al menos 6 caracteres.'),
  places: z.array(z.string()).max(2, 'Como mucho 2 lugares.'),
  count: z.number({ error: 'Escribe un número.' }).int('Escribe un número entero.'),
});

function RichForm({ onValid }: { onValid: (body: z.output<typeof passwordSchema>) => void }) {
  const form = useDraftForm(passwordSchema, () => ({ password: '', repeat: '', places: [] as string[], count: '' }), {
    body: (draft) => ({ ...draft, count: draft.count.trim() === '' ? Number.NaN : Number(draft.count) }),
    check: (draft, errors) =>
      !errors.password && draft.repeat !== draft.password ? { repeat: 'Las contraseñas no coinciden.' } : {},
  });
  const { draft, errors, field, set } = form;
  return (
    <form noValidate onSubmit={form.submit(onValid)}>
      <TextField label="Contraseña" {...field('password')} />
      <TextField label="Repítela" {...field('repeat')} />
      <TextField label="Cantidad" {...field('count')} />
      {['Cabimas', 'Mara', 'Sucre'].map((place) => (
        <label key={place}>
          <input
            type="checkbox"
            checked={draft.places.includes(place)}
            onChange={() =>
              set(
                'places',
                draft.places.includes(place) ? draft.places.filter((p) => p !== place) : [...draft.places, place],
              )
            }
          />
          {place}
        </label>
      ))}
      {errors.places && <p>{errors.places}</p>}
      {errors.form && <p role="alert">{errors.form}</p>}
      <button type="button" onClick={() => form.showErrors({ form: 'El servidor no respondió.' })}>
        Fallo
      </button>
      <button type="button" onClick={() => form.clearError('repeat')}>
        Olvidar
      </button>
      <button type="button" onClick={() => form.submit(onValid)()}>
        Confirmar
      </button>
      <button type="submit">Guardar</button>
    </form>
  );
}

describe('useDraftForm beyond text fields', () => {
  it('checks the body made from the draft, lists and checks of its own, and sends the parsed body', () => {
    const onValid = vi.fn();
    render(<RichForm onValid={onValid} />);
    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'secreta1' } });
    fireEvent.change(screen.getByLabelText('Repítela'), { target: { value: 'secreta2' } });
    fireEvent.change(screen.getByLabelText('Cantidad'), { target: { value: '2.5' } });
    for (const place of ['Cabimas', 'Mara', 'Sucre']) fireEvent.click(screen.getByLabelText(place));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Repítela')).toHaveAccessibleDescription('Las contraseñas no coinciden.');
    expect(screen.getByLabelText('Cantidad')).toHaveAccessibleDescription('Escribe un número entero.');
    expect(screen.getByText('Como mucho 2 lugares.')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Repítela'), { target: { value: 'secreta1' } });
    fireEvent.change(screen.getByLabelText('Cantidad'), { target: { value: ' 3 ' } });
    fireEvent.click(screen.getByLabelText('Sucre'));
    // A dialog's confirm button submits without a form event.
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(onValid).toHaveBeenCalledWith({ password: 'secreta1', places: ['Cabimas', 'Mara'], count: 3 });
    expect(screen.queryByText('Como mucho 2 lugares.')).not.toBeInTheDocument();
  });

  it('does not check what the schema already refused, shows errors from elsewhere until the next submit', () => {
    render(<RichForm onValid={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Repítela'), { target: { value: 'otra' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(screen.getByLabelText('Contraseña')).toHaveAccessibleDescription('Al menos 6 caracteres.');
    expect(screen.getByLabelText('Repítela')).not.toHaveAccessibleDescription();

    fireEvent.click(screen.getByRole('button', { name: 'Fallo' }));
    expect(screen.getByRole('alert')).toHaveTextContent('El servidor no respondió.');
    expect(screen.getByLabelText('Contraseña')).not.toHaveAccessibleDescription();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'secreta1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(screen.getByLabelText('Repítela')).toHaveAccessibleDescription('Las contraseñas no coinciden.');
    fireEvent.click(screen.getByRole('button', { name: 'Olvidar' }));
    expect(screen.getByLabelText('Repítela')).not.toHaveAccessibleDescription();
  });
});
