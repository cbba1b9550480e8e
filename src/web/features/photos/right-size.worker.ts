import { type RightSizeAnswer, type RightSizeRequest, rightSize } from './right-size';

/** The worker's side: one photo in (its bytes transferred), one answer out (the bytes transferred back). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RightSizeRequest>) => void) | null;
  postMessage(message: RightSizeAnswer, transfer: Transferable[]): void;
  close(): void;
};

scope.onmessage = (event) => {
  const request = event.data;
  rightSize(request)
    .then(
      (answer) => scope.postMessage(answer, [answer.data]),
      (error: unknown) =>
        scope.postMessage({ resized: false, data: request.data, reason: String(error) }, [request.data]),
    )
    // The worker ends itself (one photo each): tearing it down from the page would hold the page up.
    .finally(() => scope.close());
};
