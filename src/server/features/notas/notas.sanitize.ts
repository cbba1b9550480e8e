import { createRequire } from 'node:module';
import { clearTimeout as clearRealTimeout, setTimeout as setRealTimeout } from 'node:timers';
import { Worker } from 'node:worker_threads';
import sanitizeHtml from 'sanitize-html';
import {
  NOTA_HTML_ATTRIBUTES,
  NOTA_HTML_DROPPED_WITH_CONTENT,
  NOTA_HTML_TAGS,
} from '#shared/features/notas/notas.html';
import { decodeEntities } from './html-text';
import { NOTA_SANITIZER_THREAD } from './notas.sanitize.thread';

/**
 * Embedded players (a video, a map, a post of a social network) and the attribute that holds what they
 * show: each becomes a link to it (notas.sanitize.thread.ts).
 */
const EMBED_SOURCES: Readonly<Record<string, 'src' | 'data'>> = {
  iframe: 'src',
  embed: 'src',
  object: 'data',
  video: 'src',
  audio: 'src',
  source: 'src',
};

/** An http(s) address, protocol-relative ones (`//cdn.example.org/...`) read as https. */
function webUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.startsWith('//') ? `https:${raw}` : raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The origins (scheme, host, port) of the images in sanitised HTML, for the Content-Security-Policy. */
export function imageOriginsOf(cleanHtml: string): string[] {
  const origins = new Set<string>();
  for (const match of cleanHtml.matchAll(/<img\b[^>]*?\ssrc="([^"]*)"/g)) {
    const url = webUrl(decodeEntities(match[1] ?? ''));
    if (url) origins.add(url.origin);
  }
  return [...origins];
}

const TITLE_MAX_CHARS = 2_000;

/** Post titles are plain text: tags (and scripts) removed, character references decoded. */
export function sanitizeNotaTitle(title: string): string {
  // Titles are short (200 characters from the editor, cut here for WordPress): parsed on this thread.
  return decodeEntities(sanitizeHtml(title.slice(0, TITLE_MAX_CHARS), { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first words of a nota's text, for the editors' list. */
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

/** The timers of the time budget and of the idle thread (tests: ones they fire themselves). */
export interface NotaHtmlTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

// The budget bounds real time on the thread: node:timers' own functions, which a test's fake clock
// (vi.useFakeTimers replaces the global ones) neither stops nor hastens.
const REAL_TIMERS: NotaHtmlTimers = {
  setTimeout: (callback, ms) => setRealTimeout(callback, ms),
  clearTimeout: (handle) => clearRealTimeout(handle as NodeJS.Timeout | undefined),
};

export interface NotaHtmlOptions {
  limits?: Partial<NotaHtmlLimits>;
  /** A sanitisation still running after this long is stopped and the HTML refused. */
  budgetMs?: number;
  /** The worker thread is ended after this long without work (it is started again when needed). */
  idleMs?: number;
  timers?: NotaHtmlTimers;
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
    const closing = html.charCodeAt(at + 1) === 47; // "/"
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

const sanitizeHtmlPath = createRequire(import.meta.url).resolve('sanitize-html');

/** What the thread is given once: the lists shared with the editor, as data. */
const THREAD_DATA = {
  sanitizeHtmlPath,
  tags: [...NOTA_HTML_TAGS],
  attributes: Object.fromEntries(Object.entries(NOTA_HTML_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  droppedWithContent: [...NOTA_HTML_DROPPED_WITH_CONTENT],
  embedSources: EMBED_SOURCES,
};

interface Parsed {
  html: string;
  text: string;
}

interface Job {
  id: number;
  html: string;
  resolve(value: Parsed): void;
  reject(error: Error): void;
}

type ThreadMessage = { ready: true } | { id: number; html: string; text: string } | { id: number; error: string };

/**
 * The nota sanitiser: bounds checked before parsing, parsing on a worker thread with a time budget,
 * one post at a time, answers kept by input. `sanitize` throws NotaHtmlRefused.
 */
export function createNotaHtml(options: NotaHtmlOptions = {}) {
  const limits: NotaHtmlLimits = { ...NOTA_HTML_LIMITS, ...options.limits };
  const budgetMs = options.budgetMs ?? 3_000;
  const idleMs = options.idleMs ?? 30_000;
  const timers = options.timers ?? REAL_TIMERS;
  const queue: Job[] = [];
  let worker: Worker | undefined;
  let ready = false;
  let running: { job: Job; timer: unknown } | undefined;
  let idleTimer: unknown;
  let nextId = 1;
  // Sanitised answers by input: stored posts are sanitised again each time the public list is read.
  const kept = new Map<string, Parsed>();
  let keptChars = 0;
  const KEPT_MAX_CHARS = 4_000_000;

  function stopWorker(): void {
    const w = worker;
    worker = undefined;
    ready = false;
    if (w) void w.terminate();
  }

  function startWorker(): void {
    const w = new Worker(NOTA_SANITIZER_THREAD, {
      eval: true,
      workerData: THREAD_DATA,
      // A post that balloons memory ends its thread, not the server.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker = w;
    w.on('message', (message: ThreadMessage) => {
      if (w !== worker) return;
      if ('ready' in message) {
        ready = true;
        return pump();
      }
      if (!running || running.job.id !== message.id) return;
      const { job, timer } = running;
      timers.clearTimeout(timer);
      running = undefined;
      if ('error' in message) job.reject(new Error(message.error));
      else job.resolve({ html: message.html, text: message.text });
      pump();
    });
    const lost = (error: Error) => {
      if (w !== worker) return;
      const started = ready;
      stopWorker();
      // Out of memory or crashed: what it was working on is refused like a post past its budget.
      if (running) {
        timers.clearTimeout(running.timer);
        running.job.reject(new NotaHtmlRefused('time', limits));
        running = undefined;
      }
      // A thread that cannot even start would fail again: the waiting posts get the error instead.
      if (!started) for (const job of queue.splice(0)) job.reject(error);
      pump();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`the nota sanitiser thread exited with ${code}`)));
  }

  function pump(): void {
    timers.clearTimeout(idleTimer);
    idleTimer = undefined;
    if (running) return;
    const job = queue.shift();
    if (!job) {
      // Nothing to do: the thread (and its memory) goes until the next post, and does not keep the
      // process alive meanwhile.
      worker?.unref();
      if (worker) {
        idleTimer = timers.setTimeout(stopWorker, idleMs);
        (idleTimer as { unref?: () => void } | undefined)?.unref?.();
      }
      return;
    }
    if (!worker) startWorker();
    // While there is work, the process waits for it (a command that seeds notas, say).
    worker?.ref();
    if (!ready) {
      queue.unshift(job);
      return;
    }
    // The budget counts from when the thread has the post: not its start-up, not the queue.
    const timer = timers.setTimeout(() => {
      if (running?.job !== job) return;
      running = undefined;
      stopWorker();
      job.reject(new NotaHtmlRefused('time', limits));
      pump();
    }, budgetMs);
    running = { job, timer };
    worker?.postMessage({ id: job.id, html: job.html });
  }

  async function parse(html: string): Promise<Parsed> {
    const hit = kept.get(html);
    if (hit) return hit;
    const clean = await new Promise<Parsed>((resolve, reject) => {
      queue.push({ id: nextId++, html, resolve, reject });
      pump();
    });
    if (keptChars + html.length + clean.html.length > KEPT_MAX_CHARS) {
      kept.clear();
      keptChars = 0;
    }
    kept.set(html, clean);
    keptChars += html.length + clean.html.length;
    return clean;
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
    /** Ends the worker thread (it would end by itself after `idleMs`); what waits is refused. */
    close(): void {
      timers.clearTimeout(idleTimer);
      idleTimer = undefined;
      const closed = new Error('the nota sanitiser is closed');
      for (const job of queue.splice(0)) job.reject(closed);
      if (running) {
        timers.clearTimeout(running.timer);
        running.job.reject(closed);
        running = undefined;
      }
      stopWorker();
    },
  };
}
export type NotaHtml = ReturnType<typeof createNotaHtml>;

/** The process's sanitiser, for callers that have no app of their own (the demo, seeds, benchmarks). */
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

/** Sanitises a nota's title and HTML (the HTML off the main thread) and computes its excerpt, once. */
export async function prepareNota(html: NotaHtml, post: { title: string; html: string }): Promise<PreparedNota> {
  const clean = await html.sanitize(post.html);
  return {
    title: sanitizeNotaTitle(post.title),
    contentHtml: clean.html,
    excerpt: notaExcerpt(clean.text),
    hasContent: clean.hasContent,
  } as PreparedNota;
}
