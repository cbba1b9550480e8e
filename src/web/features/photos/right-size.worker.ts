import { type RightSizeAnswer, type RightSizeRequest, rightSize, withSha256 } from './right-size';

/**
 * The worker's side: one photo in (its bytes transferred), one answer out (the bytes transferred back,
 * with their SHA-256).
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RightSizeRequest>) => void) | null;
  postMessage(message: RightSizeAnswer, transfer: Transferable[]): void;
  close(): void;
};

scope.onmessage = (event) => {
  const request = event.data;
  // The hash of exactly the bytes that go back to be sent, made here so the page never waits on it.
  rightSize(request)
    .then(withSha256)
    .then(
      (answer) => scope.postMessage(answer, [answer.data]),
      (error: unknown) =>
        scope.postMessage({ resized: false, data: request.data, reason: String(error) }, [request.data]),
    )
    // The worker ends itself (one photo each): tearing it down from the page would hold the page up.
    .finally(() => scope.close());
};
