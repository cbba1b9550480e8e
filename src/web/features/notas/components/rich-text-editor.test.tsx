import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { WORD_LIST_STYLES, WORD_WRITTEN_BULLETS } from '#web/testing/word-clipboard';
import { RichTextEditor } from './rich-text-editor';
import { safeUrl } from './safe-url';

function renderEditor(initialHtml = '<p>Hola mundo</p>') {
  const onChange = vi.fn();
  render(
    <div>
      <span id="etiqueta">Contenido</span>
      <RichTextEditor labelId="etiqueta" initialHtml={initialHtml} onChange={onChange} />
    </div>,
  );
  const editor = screen.getByRole('textbox', { name: 'Contenido' });
  return { onChange, editor, lastHtml: () => onChange.mock.calls.at(-1)?.[0] as string };
}

// Generous margins (this file only): user-event types key by key, and on a busy machine a dialog story can
// pass 5 s; what appears after a save or a navigation can take more than testing-library's 1 s.
configure({ asyncUtilTimeout: 10_000 });
describe('RichTextEditor', { timeout: 30_000 }, () => {
  it('is a labelled multi-line textbox holding the nota’s HTML', () => {
    const { editor } = renderEditor('<h2>Título</h2><p>texto</p>');
    expect(editor).toHaveAttribute('aria-multiline', 'true');
    expect(editor).toHaveAttribute('contenteditable', 'true');
    expect(editor.innerHTML).toBe('<h2>Título</h2><p>texto</p>');
    expect(screen.getByRole('toolbar', { name: 'Formato del contenido' })).toHaveAttribute('aria-controls', editor.id);
  });

  it('follows the form’s error state: invalid, and described by the error', () => {
    const props = { labelId: 'etiqueta', initialHtml: '<p>x</p>', onChange: () => {} };
    const { rerender } = render(
      <div>
        <span id="etiqueta">Contenido</span>
        <RichTextEditor {...props} />
      </div>,
    );
    const editor = screen.getByRole('textbox', { name: 'Contenido' });
    expect(editor).not.toHaveAttribute('aria-invalid');
    rerender(
      <div>
        <span id="etiqueta">Contenido</span>
        <RichTextEditor {...props} invalid describedBy="error" />
        <p id="error">Escribe el contenido de la nota.</p>
      </div>,
    );
    expect(editor).toHaveAttribute('aria-invalid', 'true');
    expect(editor).toHaveAccessibleDescription('Escribe el contenido de la nota.');
  });

  it('turns the line into headings, lists or a paragraph, makes the selection bold or italic, and undoes', async () => {
    const user = userEvent.setup();
    const { editor, lastHtml } = renderEditor('<p>Hola mundo</p>');
    const tool = (name: string) => screen.getByRole('button', { name });
    await user.click(tool('Título de sección'));
    expect(lastHtml()).toBe('<h2>Hola mundo</h2>');
    expect(tool('Título de sección')).toHaveAttribute('aria-pressed', 'true');
    // The caret goes back to the text, to keep writing (TipTap focuses on the next frame).
    await waitFor(() => expect(editor).toHaveFocus());
    await user.click(tool('Subtítulo de sección'));
    expect(lastHtml()).toBe('<h3>Hola mundo</h3>');
    expect(tool('Título de sección')).toHaveAttribute('aria-pressed', 'false');
    await user.click(tool('Lista con viñetas'));
    expect(lastHtml()).toBe('<ul><li><p>Hola mundo</p></li></ul>');
    expect(tool('Lista con viñetas')).toHaveAttribute('aria-pressed', 'true');
    await user.click(tool('Lista numerada'));
    expect(lastHtml()).toBe('<ol><li><p>Hola mundo</p></li></ol>');
    await user.click(tool('Párrafo normal'));
    expect(lastHtml()).toBe('<p>Hola mundo</p>');
    expect(tool('Párrafo normal')).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('{Control>}a{/Control}');
    await user.click(tool('Negrita (N)'));
    expect(lastHtml()).toBe('<p><strong>Hola mundo</strong></p>');
    expect(tool('Negrita (N)')).toHaveAttribute('aria-pressed', 'true');
    // ProseMirror's history joins changes less than 500 ms apart (by the clock): a second later, the
    // italics are a step of their own however fast or busy the machine is.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1_000 });
    try {
      await user.click(tool('Cursiva (K)'));
    } finally {
      vi.useRealTimers();
    }
    expect(lastHtml()).toBe('<p><strong><em>Hola mundo</em></strong></p>');
    await user.keyboard('{Control>}z{/Control}');
    expect(lastHtml()).toBe('<p><strong>Hola mundo</strong></p>');
  });

  it('is one tab stop whose tools are reached with the arrow keys, Home and End', async () => {
    const user = userEvent.setup();
    renderEditor();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Párrafo normal' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Título de sección' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'Imagen por URL' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Párrafo normal' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('button', { name: 'Imagen por URL' })).toHaveFocus();
    // From the toolbar, Tab goes on to the text: the other tools are not tab stops.
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Contenido' })).toHaveFocus();
  });

  it('inserts a link by URL with its text, and refuses a javascript: address', async () => {
    const user = userEvent.setup();
    const { lastHtml } = renderEditor('<p>Visita </p>');
    await user.click(screen.getByRole('button', { name: 'Enlace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insertar enlace' });
    await user.type(within(dialog).getByLabelText('Dirección (URL)'), 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Insertar enlace' }));
    expect(
      within(dialog).getByText('Escribe una dirección completa que empiece por https://, http://, mailto: o tel:.'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Dirección (URL)'));
    await user.type(within(dialog).getByLabelText('Dirección (URL)'), 'https://example.org/agenda');
    await user.type(within(dialog).getByLabelText('Texto del enlace'), 'la agenda');
    await user.click(within(dialog).getByRole('button', { name: 'Insertar enlace' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(lastHtml()).toContain('<a href="https://example.org/agenda">la agenda</a>');
  });

  it('makes the selected text a link', async () => {
    const user = userEvent.setup();
    const { editor, lastHtml } = renderEditor('<p>Hola mundo</p>');
    await user.click(editor);
    await user.keyboard('{Control>}a{/Control}');
    await user.click(screen.getByRole('button', { name: 'Enlace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insertar enlace' });
    expect(dialog).toHaveTextContent('El enlace irá en «Hola mundo».');
    // The selected text is the link's text: no field for another one.
    expect(within(dialog).queryByLabelText('Texto del enlace')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Dirección (URL)'), 'tel:+584141234567{Enter}');
    expect(lastHtml()).toBe('<p><a href="tel:+584141234567">Hola mundo</a></p>');
  });

  it('opens the link dialog with Ctrl+K and inserts an image by URL with its description', async () => {
    const user = userEvent.setup();
    const { editor, lastHtml } = renderEditor('<p>Foto:</p>');
    fireEvent.keyDown(editor, { key: 'k', ctrlKey: true });
    expect(await screen.findByRole('dialog', { name: 'Insertar enlace' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Imagen por URL' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insertar imagen' });
    await user.type(within(dialog).getByLabelText('Dirección de la imagen (URL)'), 'https://example.org/foto.jpg');
    await user.click(within(dialog).getByRole('button', { name: 'Insertar imagen' }));
    expect(within(dialog).getByText('Describe la imagen para quien no puede verla.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Descripción de la imagen'), 'Caravana "grande" & feliz');
    await user.click(within(dialog).getByRole('button', { name: 'Insertar imagen' }));
    expect(lastHtml()).toContain(
      '<img src="https://example.org/foto.jpg" alt="Caravana &quot;grande&quot; &amp; feliz">',
    );
  });

  it('does not submit the form it sits in when a link or an image is inserted', async () => {
    const submitted = vi.fn((e: React.FormEvent) => e.preventDefault());
    const user = userEvent.setup();
    render(
      <form onSubmit={submitted}>
        <span id="etiqueta">Contenido</span>
        <RichTextEditor labelId="etiqueta" initialHtml="<p>x</p>" onChange={() => {}} />
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Enlace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insertar enlace' });
    await user.type(within(dialog).getByLabelText('Dirección (URL)'), 'https://example.org{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(submitted).not.toHaveBeenCalled();
  });

  it('pastes text copied from WhatsApp with its bold, italic and strikethrough, a paragraph a line', () => {
    const { editor, lastHtml } = renderEditor('<p></p>');
    const event = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'clipboardData', {
      value: {
        types: ['text/plain'],
        getData: (type: string) =>
          type === 'text/plain' ? 'Caravana *mañana* a las _8_\nLleven ~sillas~ y archivo_de_texto.txt' : '',
      },
    });
    fireEvent(editor, event);
    expect(lastHtml()).toBe(
      '<p>Caravana <strong>mañana</strong> a las <em>8</em></p><p>Lleven <s>sillas</s> y archivo_de_texto.txt</p>',
    );
  });

  it.each([
    [
      'its list styles',
      WORD_LIST_STYLES,
      '<p><strong>Recorrido del sábado</strong></p>' +
        '<ul><li><p>Cabimas</p><ul><li><p>Plaza Bolívar, 9:00&nbsp;a.&nbsp;m.</p></li></ul></li><li><p>Lagunillas</p></li></ul>' +
        '<p>o sea, 1. salida a las 8.</p>',
    ],
    [
      'bullets written out',
      WORD_WRITTEN_BULLETS,
      '<ul><li><p>Agua</p></li><li><p>Gorras</p></li></ul><p>Y después:</p><ol><li><p>Caravana</p></li><li><p>Mitin</p></li></ol>',
    ],
  ])('pastes a list copied from Word (%s) as a real list, without Word’s bullets', (_, html, expected) => {
    const { editor, lastHtml } = renderEditor('<p></p>');
    const event = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'clipboardData', {
      value: {
        types: ['text/html', 'text/plain'],
        // Word's text/plain keeps the bullets too; the editor reads the HTML.
        getData: (type: string) => (type === 'text/html' ? html : type === 'text/plain' ? '·\tCabimas' : ''),
      },
    });
    fireEvent(editor, event);
    expect(lastHtml()).toBe(expected);
  });

  it('accepts only web, mail and phone addresses', () => {
    expect(safeUrl(' https://example.org/x ', 'link')).toBe('https://example.org/x');
    expect(safeUrl('mailto:prensa@example.org', 'link')).toBe('mailto:prensa@example.org');
    expect(safeUrl('tel:+584141234567', 'link')).toBe('tel:+584141234567');
    expect(safeUrl('tel:+584141234567', 'image')).toBeNull();
    expect(safeUrl('data:image/png;base64,AAAA', 'image')).toBeNull();
    expect(safeUrl('javascript:alert(1)', 'link')).toBeNull();
    expect(safeUrl('example.org', 'link')).toBeNull();
  });
});
