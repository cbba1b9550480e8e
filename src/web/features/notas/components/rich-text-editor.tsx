import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { buttonClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { Modal } from '#web/platform/ui/modal';

export interface RichTextEditorProps {
  /** The id of the element that names the editor (its label). */
  labelId: string;
  /** The HTML the editor starts with; remount (key) to load another one. */
  initialHtml: string;
  onChange: (html: string) => void;
  describedBy?: string;
  invalid?: boolean;
}

type Tool = {
  id: string;
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

const BLOCKS = new Set(['p', 'h2', 'h3']);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** http(s), mailto: and tel: links; images only over http(s). The server checks the same again. */
export function safeUrl(raw: string, kind: 'link' | 'image'): string | null {
  const value = raw.trim();
  if (kind === 'link' && /^(mailto|tel):/i.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** document.execCommand where the browser has it (jsdom, for one, does not). */
function exec(command: string, value?: string): boolean {
  const doc = document as Document & { execCommand?: (c: string, ui: boolean, v?: string) => boolean };
  if (typeof doc.execCommand !== 'function') return false;
  try {
    return doc.execCommand(command, false, value);
  } catch {
    return false;
  }
}

function queryState(command: string): boolean {
  const doc = document as Document & { queryCommandState?: (c: string) => boolean };
  try {
    return typeof doc.queryCommandState === 'function' ? doc.queryCommandState(command) : false;
  } catch {
    return false;
  }
}

function queryBlock(): string {
  const doc = document as Document & { queryCommandValue?: (c: string) => string };
  try {
    return typeof doc.queryCommandValue === 'function' ? doc.queryCommandValue('formatBlock').toLowerCase() : '';
  } catch {
    return '';
  }
}

/**
 * A small rich-text editor for notas: paragraphs, headings, bold, italic, lists, links and images by URL.
 * A content-editable area with a toolbar that works with a finger (large buttons that keep the
 * selection) and with the keyboard (one tab stop, arrow keys between tools, Ctrl+B, Ctrl+I, Ctrl+K).
 * It only writes HTML: the server sanitises it before storing it.
 */
export function RichTextEditor({ labelId, initialHtml, onChange, describedBy, invalid }: RichTextEditorProps) {
  const editorRef = useRef<HTMLDivElement>(null);
  const savedRange = useRef<Range | null>(null);
  const toolRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);
  const [active, setActive] = useState<Record<string, boolean>>({});
  const [dialog, setDialog] = useState<'link' | 'image' | null>(null);
  const editorId = useId();

  // Loaded once; the parent remounts the editor (key) for another nota.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the initial HTML only
  useEffect(() => {
    if (editorRef.current) editorRef.current.innerHTML = initialHtml;
    exec('defaultParagraphSeparator', 'p');
  }, []);

  const emit = useCallback(() => {
    if (editorRef.current) onChange(editorRef.current.innerHTML);
  }, [onChange]);

  const refreshState = useCallback(() => {
    const block = queryBlock();
    setActive({
      bold: queryState('bold'),
      italic: queryState('italic'),
      ul: queryState('insertUnorderedList'),
      ol: queryState('insertOrderedList'),
      h2: block === 'h2',
      h3: block === 'h3',
      p: block === 'p',
    });
  }, []);

  // Remember where the caret was, so a tool used from the toolbar (or a dialog) acts there.
  useEffect(() => {
    const onSelection = () => {
      const selection = window.getSelection();
      const editor = editorRef.current;
      if (!selection || selection.rangeCount === 0 || !editor) return;
      const range = selection.getRangeAt(0);
      if (editor.contains(range.commonAncestorContainer)) {
        savedRange.current = range.cloneRange();
        refreshState();
      }
    };
    document.addEventListener('selectionchange', onSelection);
    return () => document.removeEventListener('selectionchange', onSelection);
  }, [refreshState]);

  /** Puts the focus and the remembered selection back in the editor (at the end when there is none). */
  const restoreSelection = (): Range | null => {
    const editor = editorRef.current;
    if (!editor) return null;
    editor.focus();
    let range = savedRange.current;
    if (!range || !editor.contains(range.commonAncestorContainer)) {
      range = document.createRange();
      range.selectNodeContents(editor);
      range.collapse(false);
    }
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return range;
  };

  /** Inserts HTML at the remembered place, with the browser's command or, where it has none, by hand. */
  const insertHtml = (html: string) => {
    const range = restoreSelection();
    if (exec('insertHTML', html) || !range) return;
    const template = document.createElement('template');
    template.innerHTML = html;
    const last = template.content.lastChild;
    range.deleteContents();
    range.insertNode(template.content);
    if (last) {
      range.setStartAfter(last);
      range.collapse(true);
    }
  };

  const apply = (tool: string) => {
    if (tool === 'link' || tool === 'image') {
      setDialog(tool);
      return;
    }
    restoreSelection();
    if (BLOCKS.has(tool)) exec('formatBlock', `<${tool}>`);
    else if (tool === 'ul') exec('insertUnorderedList');
    else if (tool === 'ol') exec('insertOrderedList');
    else exec(tool);
    emit();
    refreshState();
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

  const onEditorKey = (event: React.KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      setDialog('link');
    }
  };

  const selectedText = () => savedRange.current?.toString() ?? '';

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
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text area is a content-editable textbox */}
      <div
        id={editorId}
        ref={editorRef}
        role="textbox"
        tabIndex={0}
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        contentEditable
        suppressContentEditableWarning
        data-placeholder="Escribe aquí el contenido de la nota…"
        onInput={emit}
        onBlur={emit}
        onKeyDown={onEditorKey}
        onKeyUp={refreshState}
        onMouseUp={refreshState}
        className="nota-content min-h-64 px-4 py-3 text-stone-900 focus:outline-none empty:before:text-stone-500 empty:before:content-[attr(data-placeholder)]"
      />
      <LinkDialog
        open={dialog === 'link'}
        selectedText={dialog === 'link' ? selectedText() : ''}
        onClose={() => setDialog(null)}
        onInsert={(url, text) => {
          setDialog(null);
          const range = restoreSelection();
          if (range && !range.collapsed && !text) {
            if (!exec('createLink', url)) {
              const anchor = document.createElement('a');
              anchor.href = url;
              anchor.appendChild(range.extractContents());
              range.insertNode(anchor);
            }
          } else {
            insertHtml(`<a href="${escapeHtml(url)}">${escapeHtml(text || url)}</a>`);
          }
          emit();
        }}
      />
      <ImageDialog
        open={dialog === 'image'}
        onClose={() => setDialog(null)}
        onInsert={(url, alt) => {
          setDialog(null);
          insertHtml(`<img src="${escapeHtml(url)}" alt="${escapeHtml(alt)}">`);
          emit();
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
