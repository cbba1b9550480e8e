import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { useId, useRef, useState } from 'react';
import { buttonClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';
import { notaExtensions } from './nota-extensions';
import { safeUrl } from './safe-url';

export interface RichTextEditorProps {
  /** The id of the element that names the editor (its label). */
  labelId: string;
  /** The HTML the editor starts with; remount (key) to load another one. */
  initialHtml: string;
  onChange: (html: string) => void;
  describedBy?: string;
  invalid?: boolean;
}

type ToolId = 'p' | 'h2' | 'h3' | 'bold' | 'italic' | 'ul' | 'ol' | 'link' | 'image';

type Tool = {
  id: ToolId;
  label: string;
  /** Short text on the button; the full label is read to screen readers. */
  face: string;
  faceClass?: string;
  shortcut?: string;
};

const TOOLS: Tool[] = [
  { id: 'p', label: 'Párrafo normal', face: 'Párrafo' },
  { id: 'h2', label: 'Título de sección', face: 'Título', faceClass: 'font-black' },
  { id: 'h3', label: 'Subtítulo de sección', face: 'Subtítulo', faceClass: 'font-bold' },
  { id: 'bold', label: 'Negrita (N)', face: 'N', faceClass: 'font-black', shortcut: 'Control+B' },
  { id: 'italic', label: 'Cursiva (K)', face: 'K', faceClass: 'italic font-serif', shortcut: 'Control+I' },
  { id: 'ul', label: 'Lista con viñetas', face: 'Viñetas' },
  { id: 'ol', label: 'Lista numerada', face: 'Numerada' },
  { id: 'link', label: 'Enlace', face: 'Enlace', shortcut: 'Control+K' },
  { id: 'image', label: 'Imagen por URL', face: 'Imagen' },
];

const NO_STATE: Partial<Record<ToolId, boolean>> = {};

/**
 * The notas editor (TipTap, on ProseMirror): paragraphs, headings, bold, italic, lists, links and images by
 * URL, with undo and a paste that keeps only what a nota may hold (see nota-extensions.ts). A toolbar that
 * works with a finger (large buttons that keep the selection) and with the keyboard (one tab stop, arrow
 * keys between tools, Ctrl+B, Ctrl+I, Ctrl+K). It only writes HTML: the server sanitises it before storing it.
 * Loaded on its own (lazy) by the nota form: the public pages never download it.
 */
export function RichTextEditor({ labelId, initialHtml, onChange, describedBy, invalid }: RichTextEditorProps) {
  const toolRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);
  const [dialog, setDialog] = useState<'link' | 'image' | null>(null);
  const [selectedText, setSelectedText] = useState('');
  const editorId = useId();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const openLinkRef = useRef(() => {});

  const attributes = (): Record<string, string> => ({
    id: editorId,
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    class: 'nota-content min-h-64 px-4 py-3 text-stone-900 focus:outline-none',
  });

  const editor = useEditor({
    extensions: notaExtensions({
      placeholder: 'Escribe aquí el contenido de la nota…',
      onLinkShortcut: () => openLinkRef.current(),
    }),
    // Loaded once; the parent remounts the editor (key) for another nota.
    content: initialHtml,
    // Read again at each render (useEditor passes changed options on): the error state follows the form.
    editorProps: { attributes: attributes() },
    onUpdate: ({ editor }) => onChangeRef.current(editor.getHTML()),
  });

  const active =
    useEditorState({
      editor,
      selector: ({ editor: e }): Partial<Record<ToolId, boolean>> => {
        if (!e) return NO_STATE;
        const inList = e.isActive('bulletList') || e.isActive('orderedList');
        return {
          p: e.isActive('paragraph') && !inList,
          h2: e.isActive('heading', { level: 2 }),
          h3: e.isActive('heading', { level: 3 }),
          bold: e.isActive('bold'),
          italic: e.isActive('italic'),
          ul: e.isActive('bulletList'),
          ol: e.isActive('orderedList'),
        };
      },
    }) ?? NO_STATE;

  const openDialog = (kind: 'link' | 'image') => {
    if (!editor) return;
    const { from, to } = editor.state.selection;
    setSelectedText(kind === 'link' ? editor.state.doc.textBetween(from, to, ' ') : '');
    setDialog(kind);
  };
  openLinkRef.current = () => openDialog('link');

  const apply = (tool: ToolId) => {
    if (!editor) return;
    if (tool === 'link' || tool === 'image') {
      openDialog(tool);
      return;
    }
    // Each tool acts where the caret is and gives the focus back to the text, to keep writing.
    const chain = editor.chain().focus();
    if (tool === 'p') chain.clearNodes().run();
    else if (tool === 'h2') chain.toggleHeading({ level: 2 }).run();
    else if (tool === 'h3') chain.toggleHeading({ level: 3 }).run();
    else if (tool === 'bold') chain.toggleBold().run();
    else if (tool === 'italic') chain.toggleItalic().run();
    else if (tool === 'ul') chain.toggleBulletList().run();
    else chain.toggleOrderedList().run();
  };

  const onToolbarKey = (event: React.KeyboardEvent) => {
    const last = TOOLS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (focusIndex + 1) % TOOLS.length
        : event.key === 'ArrowLeft'
          ? (focusIndex - 1 + TOOLS.length) % TOOLS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setFocusIndex(next);
    toolRefs.current[next]?.focus();
  };

  return (
    <div
      className={`rounded-lg border-2 bg-white focus-within:border-brand ${invalid ? 'border-red-700' : 'border-stone-300'}`}
    >
      <div
        role="toolbar"
        aria-label="Formato del contenido"
        aria-controls={editorId}
        onKeyDown={onToolbarKey}
        className="flex flex-wrap gap-1 border-b border-stone-200 bg-stone-50 p-1.5"
      >
        {TOOLS.map((tool, i) => {
          const toggles = tool.id !== 'link' && tool.id !== 'image';
          return (
            <button
              key={tool.id}
              ref={(el) => {
                toolRefs.current[i] = el;
              }}
              type="button"
              tabIndex={i === focusIndex ? 0 : -1}
              aria-label={tool.label}
              aria-pressed={toggles ? Boolean(active[tool.id]) : undefined}
              aria-keyshortcuts={tool.shortcut}
              title={tool.shortcut ? `${tool.label} (${tool.shortcut.replace('Control', 'Ctrl')})` : tool.label}
              // Keep the editor's selection when the button is pressed with a finger or a mouse.
              onMouseDown={(e) => e.preventDefault()}
              onFocus={() => setFocusIndex(i)}
              onClick={() => apply(tool.id)}
              className={`min-h-11 min-w-11 rounded-md px-2.5 text-sm text-stone-800 hover:bg-white focus-visible:outline-2 focus-visible:outline-brand aria-pressed:bg-brand aria-pressed:text-white ${tool.faceClass ?? 'font-semibold'}`}
            >
              <span aria-hidden="true">{tool.face}</span>
            </button>
          );
        })}
      </div>
      <EditorContent editor={editor} />
      <LinkDialog
        open={dialog === 'link'}
        selectedText={dialog === 'link' ? selectedText : ''}
        onClose={() => setDialog(null)}
        onInsert={(url, text) => {
          setDialog(null);
          if (!editor) return;
          if (selectedText && !text) {
            editor.chain().focus().extendMarkRange('link').setLink({ href: url }).run();
          } else {
            editor
              .chain()
              .focus()
              .insertContent({ type: 'text', text: text || url, marks: [{ type: 'link', attrs: { href: url } }] })
              .unsetMark('link')
              .run();
          }
        }}
      />
      <ImageDialog
        open={dialog === 'image'}
        onClose={() => setDialog(null)}
        onInsert={(url, alt) => {
          setDialog(null);
          editor?.chain().focus().setImage({ src: url, alt }).run();
        }}
      />
    </div>
  );
}

function LinkDialog({
  open,
  selectedText,
  onClose,
  onInsert,
}: {
  open: boolean;
  selectedText: string;
  onClose: () => void;
  onInsert: (url: string, text: string) => void;
}) {
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setUrl('');
      setText('');
      setError(undefined);
    }
  }
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Insertar enlace"
      description={selectedText ? `El enlace irá en «${selectedText.slice(0, 80)}».` : undefined}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          // The dialog is a portal inside the nota's form: React would pass the submit on to it.
          e.stopPropagation();
          const safe = safeUrl(url, 'link');
          if (!safe) {
            setError('Escribe una dirección completa que empiece por https://, http://, mailto: o tel:.');
            return;
          }
          onInsert(safe, selectedText ? '' : text.trim());
        }}
      >
        <TextField
          label="Dirección (URL)"
          autoFocus
          type="url"
          inputMode="url"
          placeholder="https://"
          value={url}
          error={error}
          onChange={(e) => setUrl(e.target.value)}
          autoComplete="off"
        />
        {!selectedText && (
          <TextField
            label="Texto del enlace"
            hint="Si lo dejas vacío, se muestra la dirección."
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className={buttonClass.primary}>
            Insertar enlace
          </button>
        </div>
      </form>
    </Modal>
  );
}

function ImageDialog({
  open,
  onClose,
  onInsert,
}: {
  open: boolean;
  onClose: () => void;
  onInsert: (url: string, alt: string) => void;
}) {
  const [url, setUrl] = useState('');
  const [alt, setAlt] = useState('');
  const [errors, setErrors] = useState<{ url?: string; alt?: string }>({});
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setUrl('');
      setAlt('');
      setErrors({});
    }
  }
  return (
    <Modal open={open} onClose={onClose} title="Insertar imagen">
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          // The dialog is a portal inside the nota's form: React would pass the submit on to it.
          e.stopPropagation();
          const safe = safeUrl(url, 'image');
          const next = {
            url: safe ? undefined : 'Escribe la dirección completa de la imagen, que empiece por https://.',
            alt: alt.trim() ? undefined : 'Describe la imagen para quien no puede verla.',
          };
          setErrors(next);
          if (safe && !next.alt) onInsert(safe, alt.trim());
        }}
      >
        <TextField
          label="Dirección de la imagen (URL)"
          autoFocus
          type="url"
          inputMode="url"
          placeholder="https://"
          value={url}
          error={errors.url}
          onChange={(e) => setUrl(e.target.value)}
          autoComplete="off"
        />
        <TextField
          label="Descripción de la imagen"
          hint="La leen los lectores de pantalla y aparece si la imagen no carga."
          value={alt}
          error={errors.alt}
          maxLength={200}
          onChange={(e) => setAlt(e.target.value)}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass.secondary} onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className={buttonClass.primary}>
            Insertar imagen
          </button>
        </div>
      </form>
    </Modal>
  );
}
