import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sanitizeHtml from 'sanitize-html';
import { decodeEntities } from './html-text';

/**
 * What sanitize-html keeps of a nota, as plain data: it travels to the worker thread (below), where
 * the links and images get their attributes set too.
 */
const NOTA_OPTIONS = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'span',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Everything inside these is dropped, not just the tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
} satisfies sanitizeHtml.IOptions;

/** Attributes every kept link and image gets, whatever they had. */
const SET_ATTRIBUTES = {
  a: { rel: 'noopener noreferrer nofollow', target: '_blank' },
  img: { loading: 'lazy' },
};

/** Post titles are plain text: tags (and scripts) removed, character references decoded. */
export function sanitizeNotaTitle(title: string): string {
  // Titles are short (200 characters from the editor, capped for WordPress): parsed here directly.
  return decodeEntities(sanitizeHtml(title.slice(0, TITLE_MAX_CHARS), { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, ' ')
    .trim();
}
const TITLE_MAX_CHARS = 2_000;

/** The first words of a nota as plain text, for the editors' list. */
export function notaExcerpt(text: string, max = 160): string {
  const clean = decodeEntities(text).replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}

export interface NotaHtmlLimits {
  /** Characters of HTML. */
  maxChars: number;
  /** Elements open inside each other. The nesting bomb is 66,000 deep; real posts are a few dozen. */
  maxDepth: number;
  maxElements: number;
}

export const NOTA_HTML_LIMITS: NotaHtmlLimits = { maxChars: 1_000_000, maxDepth: 200, maxElements: 20_000 };

export interface NotaHtmlOptions {
  limits?: Partial<NotaHtmlLimits>;
  /** A sanitisation still running after this long is stopped and the HTML refused. */
  budgetMs?: number;
  /** The worker thread is ended after this long without work (it is started again when needed). */
  idleMs?: number;
}

export type NotaHtmlRefusal = 'size' | 'depth' | 'elements' | 'time';

/** HTML we will not parse, or could not parse within the budget. */
export class NotaHtmlRefused extends Error {
  constructor(
    public readonly reason: NotaHtmlRefusal,
    public readonly limits: NotaHtmlLimits,
  ) {
    super(`nota HTML refused: ${reason}`);
    this.name = 'NotaHtmlRefused';
  }
}

/** Sanitised HTML, its text (for the excerpt), and whether there is anything to read or see. */
export interface CleanNotaHtml {
  html: string;
  text: string;
  hasContent: boolean;
}

// Elements whose end tag may be left out (the parser closes them itself): not counted as nesting.
const OPTIONAL_END = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'option',
  'colgroup',
]);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'param',
  'keygen',
]);

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isNameChar = (c: number) => isLetter(c) || (c >= 48 && c <= 57) || c === 45;

/**
 * Why HTML must not be parsed at all, found in one linear pass without parsing: too long, too many
 * elements, or elements nested too deep (sanitize-html's time grows with the square of the depth of
 * unclosed tags: 66,000 nested <b> took 7-19 s). Undefined when it is within bounds.
 */
export function exceedsNotaLimits(html: string, limits: NotaHtmlLimits): NotaHtmlRefusal | undefined {
  if (html.length > limits.maxChars) return 'size';
  let depth = 0;
  let elements = 0;
  let at = html.indexOf('<');
  while (at !== -1 && at < html.length - 1) {
    const next = html.charCodeAt(at + 1);
    const closing = next === 47; // "/"
    const nameStart = closing ? at + 2 : at + 1;
    let nameEnd = nameStart;
    while (nameEnd < html.length && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    if (name && isLetter(name.charCodeAt(0))) {
      const end = html.indexOf('>', nameEnd);
      // No ">" left: the rest is one unfinished tag and nothing after it can be an element.
      if (end === -1) break;
      if (closing) {
        if (!OPTIONAL_END.has(name) && !VOID.has(name) && depth > 0) depth--;
      } else {
        if (++elements > limits.maxElements) return 'elements';
        const selfClosing = html.charCodeAt(end - 1) === 47;
        if (!OPTIONAL_END.has(name) && !VOID.has(name) && !selfClosing && ++depth > limits.maxDepth) return 'depth';
      }
      at = html.indexOf('<', end + 1);
    } else {
      at = html.indexOf('<', at + 1);
    }
  }
  return undefined;
}

// The sanitiser runs on a worker thread: the event loop goes on answering votes, uploads and
// /api/health whatever a post holds, and a post that takes too long is stopped by ending the thread.
// Plain JavaScript, like the image converter's child: no TypeScript loader is needed in the thread,
// whether the server runs from the bundle, under tsx or under Vitest.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sanitizeHtml = require(workerData.sanitizeHtmlPath);
const set = workerData.setAttributes;
const nota = Object.assign({}, workerData.options, {
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', set.a, true),
    img: sanitizeHtml.simpleTransform('img', set.img, true),
  },
});
const textOnly = { allowedTags: [], allowedAttributes: {} };
// Block ends become spaces, so "<p>a</p><p>b</p>" reads "a b".
const BLOCK_END = /<\\/(p|h[1-6]|li|blockquote|figcaption|td|th)>|<br\\s*\\/?>/gi;
parentPort.on('message', (job) => {
  try {
    const html = sanitizeHtml(job.html, nota);
    const text = sanitizeHtml(html.replace(BLOCK_END, '$& '), textOnly);
    parentPort.postMessage({ id: job.id, html, text });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

const sanitizeHtmlPath = createRequire(import.meta.url).resolve('sanitize-html');

interface Job {
  id: number;
  html: string;
  resolve(value: { html: string; text: string }): void;
  reject(error: Error): void;
}

/**
 * The nota sanitiser: bounds checked before parsing, parsing on a worker thread with a time budget,
 * one post at a time, answers kept for the read path. `sanitize` throws NotaHtmlRefused.
 */
export function createNotaHtml(options: NotaHtmlOptions = {}) {
  const limits: NotaHtmlLimits = { ...NOTA_HTML_LIMITS, ...options.limits };
  const budgetMs = options.budgetMs ?? 3_000;
  const idleMs = options.idleMs ?? 30_000;
  const queue: Job[] = [];
  let worker: Worker | undefined;
  let ready = false;
  let running: { job: Job; timer: NodeJS.Timeout } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  // Sanitised answers by input, for the public list (which sanitises stored posts again on the way out).
  const kept = new Map<string, { html: string; text: string }>();
  let keptChars = 0;
  const KEPT_MAX_CHARS = 4_000_000;

  function stopWorker(): void {
    const w = worker;
    worker = undefined;
    ready = false;
    if (w) void w.terminate();
  }

  function startWorker(): void {
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { sanitizeHtmlPath, options: NOTA_OPTIONS, setAttributes: SET_ATTRIBUTES },
      // A post that balloons memory ends its thread, not the server.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker = w;
    w.unref();
    w.on('message', (message: { ready?: true; id?: number; html?: string; text?: string; error?: string }) => {
      if (w !== worker) return;
      if (message.ready) {
        ready = true;
        return pump();
      }
      if (!running || running.job.id !== message.id) return;
      const { job, timer } = running;
      clearTimeout(timer);
      running = undefined;
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve({ html: message.html ?? '', text: message.text ?? '' });
      pump();
    });
    const lost = (error: Error) => {
      if (w !== worker) return;
      const started = ready;
      stopWorker();
      // Out of memory or crashed: what it was working on is refused like a post past its budget.
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(new NotaHtmlRefused('time', limits));
        running = undefined;
      }
      // A thread that cannot even start would fail again: the waiting posts get the error instead.
      if (!started) for (const job of queue.splice(0)) job.reject(error);
      pump();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`worker exited with ${code}`)));
  }

  function pump(): void {
    clearTimeout(idleTimer);
    if (running) return;
    const job = queue.shift();
    if (!job) {
      // Nothing to do: the thread (and its memory) goes until the next post.
      idleTimer = setTimeout(stopWorker, idleMs);
      idleTimer.unref();
      return;
    }
    if (!worker) startWorker();
    if (!ready) {
      queue.unshift(job);
      return;
    }
    // The budget counts from when the thread has the post: not its start-up, not the queue.
    const timer = setTimeout(() => {
      if (running?.job !== job) return;
      running = undefined;
      stopWorker();
      job.reject(new NotaHtmlRefused('time', limits));
      pump();
    }, budgetMs);
    running = { job, timer };
    worker?.postMessage({ id: job.id, html: job.html });
  }

  function parse(html: string): Promise<{ html: string; text: string }> {
    const hit = kept.get(html);
    if (hit) return Promise.resolve(hit);
    return new Promise<{ html: string; text: string }>((resolve, reject) => {
      queue.push({ id: nextId++, html, resolve, reject });
      pump();
    }).then((clean) => {
      if (keptChars + html.length + clean.html.length > KEPT_MAX_CHARS) {
        kept.clear();
        keptChars = 0;
      }
      kept.set(html, clean);
      keptChars += html.length + clean.html.length;
      return clean;
    });
  }

  return {
    limits,
    /** Makes post HTML safe to render: no script, no event handler, no `javascript:` URL can survive. */
    async sanitize(html: string): Promise<CleanNotaHtml> {
      const refusal = exceedsNotaLimits(html, limits);
      if (refusal) throw new NotaHtmlRefused(refusal, limits);
      const clean = await parse(html);
      return {
        html: clean.html,
        text: clean.text,
        hasContent: /<img\s/i.test(clean.html) || decodeEntities(clean.text).trim().length > 0,
      };
    },
    /** Ends the worker thread (it would end by itself after `idleMs`). */
    close(): void {
      clearTimeout(idleTimer);
      for (const job of queue.splice(0)) job.reject(new Error('nota sanitiser closed'));
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(new Error('nota sanitiser closed'));
        running = undefined;
      }
      stopWorker();
    },
  };
}
export type NotaHtml = ReturnType<typeof createNotaHtml>;

/** The process's sanitiser, for callers that have no app (the demo, seeds, benchmarks). */
export const notaHtml = createNotaHtml();

declare const prepared: unique symbol;

/** A nota ready to store: title and HTML sanitised, excerpt computed. Only prepareNota makes one. */
export type PreparedNota = {
  title: string;
  contentHtml: string;
  excerpt: string;
  /** Text or an image survived sanitising. */
  hasContent: boolean;
} & { readonly [prepared]: true };

/** Sanitises a nota's title and HTML (off the main thread) and computes its excerpt, once. */
export async function prepareNota(html: NotaHtml, post: { title: string; html: string }): Promise<PreparedNota> {
  const clean = await html.sanitize(post.html);
  return {
    title: sanitizeNotaTitle(post.title),
    contentHtml: clean.html,
    excerpt: notaExcerpt(clean.text),
    hasContent: clean.hasContent,
  } as PreparedNota;
}
