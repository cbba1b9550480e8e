/**
 * A request held by a test: its handler waits for `gate`, and the test calls `release` when the answer
 * may go (a slow network, on its terms).
 */
export function createGate(): { gate: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}
