import { Extension, Mark, Node } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { OrderedList } from '@tiptap/extension-list';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { Placeholder } from '@tiptap/extensions';
import { DOMParser as ProseMirrorDOMParser, type Slice } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';
import { cleanPastedHtml, whatsappTextToHtml } from './clean-pasted-html';
import { safeUrl } from './safe-url';

/*
 * The editor's schema: the tags and attributes the server's sanitiser keeps (#shared/features/notas/notas.html)
 * and nothing more, so that what is pasted from Word, Google Docs or a web page is cut down in the editor to
 * what the nota will show. Differences that do not change what a reader sees: <b> and <i> are written as
 * <strong> and <em>; a <span> (the sanitiser keeps it bare, without attributes) is left out; a bold or italic
 * written as a style (Google Docs) becomes <strong> or <em>.
 */

/** A mark written as one bare tag, for the inline tags the starter kit has no extension for. */
const bareMark = (name: string, tag: string, alsoStyle?: { property: string; value: string; excludes: string }) =>
  Mark.create({
    name,
    excludes: alsoStyle?.excludes,
    parseHTML: () => [
      { tag },
      // Google Docs writes sub- and superscripts as a style.
      ...(alsoStyle
        ? [{ style: alsoStyle.property, getAttrs: (v: string) => (v === alsoStyle.value ? null : false) }]
        : []),
    ],
    renderHTML: () => [tag, 0],
  });

const Subscript = bareMark('subscript', 'sub', { property: 'vertical-align', value: 'sub', excludes: 'superscript' });
const Superscript = bareMark('superscript', 'sup', {
  property: 'vertical-align',
  value: 'super',
  excludes: 'subscript',
});
const Small = bareMark('small', 'small');
const Highlight = bareMark('highlight', 'mark');

const Figure = Node.create({
  name: 'figure',
  group: 'block',
  content: '(block | figcaption)+',
  defining: true,
  parseHTML: () => [{ tag: 'figure' }],
  renderHTML: () => ['figure', 0],
});

const Figcaption = Node.create({
  name: 'figcaption',
  content: 'inline*',
  parseHTML: () => [{ tag: 'figcaption' }],
  renderHTML: () => ['figcaption', 0],
});

const NotaLink = Link.extend({
  // href and title only: the server sets rel and target on every link itself.
  addAttributes() {
    return { href: { default: null, parseHTML: (el) => el.getAttribute('href') }, title: { default: null } };
  },
}).configure({
  openOnClick: false,
  autolink: false,
  // Options merge into the defaults (target, rel): null takes them out.
  HTMLAttributes: { target: null, rel: null, class: null },
  isAllowedUri: (url) => safeUrl(url, 'link') !== null,
});

const NotaImage = Image.extend({
  addAttributes() {
    return {
      src: { default: null },
      alt: { default: null },
      title: { default: null },
      width: { default: null },
      height: { default: null },
    };
  },
  // Only pictures the public page can show: an absolute http(s) address (no data:, file: or relative URL).
  parseHTML() {
    return [{ tag: 'img[src]', getAttrs: (el) => (safeUrl(el.getAttribute('src') ?? '', 'image') ? null : false) }];
  },
}).configure({ inline: true });

// The sanitiser keeps no attribute on lists: a list's numbering start and style are not kept either.
const NotaOrderedList = OrderedList.extend({
  addAttributes: () => ({}),
  renderHTML: () => ['ol', 0],
});

// Tables as plain rows and cells: no widths, styles or alignment (the sanitiser keeps only the spans).
const cellAttributes = () => ({
  colspan: { default: 1 },
  rowspan: { default: 1 },
  colwidth: { default: null, parseHTML: () => null, renderHTML: () => ({}) },
});
const NotaTable = Table.extend({
  renderHTML: () => ['table', ['tbody', 0]],
  // Tab leaves the text as everywhere else in the form (in a table it would add rows without end); the
  // arrow keys move between cells.
  addKeyboardShortcuts() {
    const { Tab: _tab, 'Shift-Tab': _shiftTab, ...others } = this.parent?.() ?? {};
    return others;
  },
}).configure({ resizable: false });
const NotaTableCell = TableCell.extend({ addAttributes: cellAttributes });
const NotaTableHeader = TableHeader.extend({ addAttributes: cellAttributes });

const PasteCleanup = Extension.create({
  name: 'pasteCleanup',
  addProseMirrorPlugins: () => [
    new Plugin({
      key: new PluginKey('pasteCleanup'),
      props: {
        transformPastedHTML: cleanPastedHtml,
        // Plain text with WhatsApp's style signs; any other text (or Ctrl+Shift+V) is pasted as it is.
        clipboardTextParser: (text, $context, plain, view) => {
          const html = plain ? null : whatsappTextToHtml(text);
          // Null lets ProseMirror parse the text itself (its type says a Slice must come back).
          if (!html) return null as unknown as Slice;
          const body = new DOMParser().parseFromString(html, 'text/html').body;
          return ProseMirrorDOMParser.fromSchema(view.state.schema).parseSlice(body, { context: $context });
        },
      },
    }),
  ],
});

/** The notas editor's extensions; `onLinkShortcut` runs on Ctrl+K (⌘K), which opens the link dialog. */
export function notaExtensions(options: { placeholder?: string; onLinkShortcut?: () => void } = {}) {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      codeBlock: { languageClassPrefix: '', defaultLanguage: null },
      orderedList: false,
      link: false,
      // No empty paragraph kept at the end: the arrow keys reach the line after a table (gap cursor).
      trailingNode: false,
    }),
    NotaOrderedList,
    NotaLink,
    NotaImage,
    Subscript,
    Superscript,
    Small,
    Highlight,
    Figure,
    Figcaption,
    NotaTable,
    TableRow,
    NotaTableHeader,
    NotaTableCell,
    PasteCleanup,
    Placeholder.configure({ placeholder: options.placeholder ?? '' }),
    Extension.create({
      name: 'linkShortcut',
      addKeyboardShortcuts: () => ({
        'Mod-k': () => {
          options.onLinkShortcut?.();
          return true;
        },
      }),
    }),
  ];
}
