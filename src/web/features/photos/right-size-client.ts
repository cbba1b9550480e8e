import type { RightSizeAnswer, RightSizeRequest } from './right-size';

/** A worker that has not answered in this long is given up: the photo goes as it is. */
const WORKER_TIMEOUT_MS = 60_000;

/**
 * Right-sizes a photo in a Web Worker (docs/decisions/047); the bytes move to the worker and back
 * without copies. Where the browser has no workers or no OffscreenCanvas (or the worker fails), the
 * photo goes as it is.
 */
export function rightSizeInWorker(request: RightSizeRequest): Promise<RightSizeAnswer> {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') {
    return Promise.resolve({ resized: false, data: request.data, reason: 'sin OffscreenCanvas' });
  }
  return new Promise((resolve) => {
    // One worker per photo: the decoded picture (48 MB for 12 megapixels) goes with it.
    const worker = new Worker(new URL('./right-size.worker.ts', import.meta.url), { type: 'module' });
    let settled = false;
    const done = (answer: RightSizeAnswer, stop = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A worker that answered ends itself; only a silent or failed one is stopped from here.
      if (stop) worker.terminate();
      resolve(answer);
    };
    const copy = request.data.slice(0);
    const timer = setTimeout(
      () => done({ resized: false, data: copy, reason: 'el trabajador no respondió' }),
      WORKER_TIMEOUT_MS,
    );
    worker.onmessage = (event: MessageEvent<RightSizeAnswer>) => done(event.data);
    worker.onerror = () => done({ resized: false, data: copy, reason: 'el trabajador falló' }, true);
    worker.postMessage(request, [request.data]);
  });
}
