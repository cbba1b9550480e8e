/**
 * Where the app's code is (the module script and the chunks it imports, as the build wrote them into the
 * shell's head): the server writes them on the public page's own script element.
 */
export interface AppCode {
  module: string;
  chunks: string[];
}

export function appCodeOf(script: Element | null): AppCode | undefined {
  const module = script?.getAttribute('data-app-module');
  if (!script || !module) return undefined;
  const chunks = (script.getAttribute('data-app-chunks') ?? '').split(' ').filter(Boolean);
  return { module, chunks };
}

function addToHead(tag: 'link' | 'script', attributes: Record<string, string>): void {
  const element = document.createElement(tag);
  element.crossOrigin = '';
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.head.append(element);
}

/** Runs the app on this page: it takes the rendered page over (hydration) as the shell's code would. */
export function startApp(code: AppCode): void {
  for (const chunk of code.chunks) addToHead('link', { rel: 'modulepreload', href: chunk });
  addToHead('script', { type: 'module', src: code.module });
}

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * Once the page has loaded and the phone has nothing else to do, the app's code is downloaded (not run)
 * at the lowest priority, so that signing in opens at once: never on a phone that asked to save data or
 * on a 2G link, where it would cost the visitor more than it saves the few who sign in.
 */
export function fetchAppWhenIdle(code: AppCode): void {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  if (connection?.saveData || /2g/.test(connection?.effectiveType ?? '')) return;
  if (!('requestIdleCallback' in window)) return;
  const whenIdle = () =>
    requestIdleCallback(() => {
      for (const file of [code.module, ...code.chunks])
        addToHead('link', { rel: 'prefetch', as: 'script', href: file });
    });
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
