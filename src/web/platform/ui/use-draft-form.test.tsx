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
