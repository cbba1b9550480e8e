import { useMutation } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render';
import { type MutationSettings, showsOwnError } from './mutation-errors';

const MESSAGE = 'No se pudo guardar: el registro ya no existe.';

/** A button whose change fails with a Spanish message, as the API client's errors do. */
function SaveButton({ settings }: { settings?: MutationSettings }) {
  const [failures, setFailures] = useState(0);
  const save = useMutation({
    ...settings,
    mutationFn: async () => {
      throw new Error(MESSAGE);
    },
  });
  return (
    <>
      <button type="button" onClick={() => save.mutate(undefined, { onError: () => setFailures((n) => n + 1) })}>
        Guardar
      </button>
      <p>Fallos: {failures}</p>
    </>
  );
}

describe('the default error toast of failed mutations', () => {
  it('shows the message of a failed change once, with no code of the screen for it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SaveButton />);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(MESSAGE)).toBeInTheDocument();
    // Tapped again while the toast is on screen: still one toast.
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await screen.findByText('Fallos: 2');
    expect(screen.getAllByText(MESSAGE)).toHaveLength(1);
  });

  it('stays quiet for a mutation whose screen shows the error itself', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SaveButton settings={showsOwnError} />);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await screen.findByText('Fallos: 1');
    expect(screen.queryByText(MESSAGE)).not.toBeInTheDocument();
  });
});
