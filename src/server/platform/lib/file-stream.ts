import type fs from 'node:fs';

/**
 * Resolves once a file's write stream has let go of the file. A stream destroyed while it is still
 * opening (a pipeline whose source had already failed) creates the file afterwards, then closes it:
 * removing the file before then leaves it behind, a `.part` on the disk.
 */
export async function fileStreamClosed(stream: fs.WriteStream): Promise<void> {
  if (stream.closed) return;
  await new Promise<void>((resolve) => stream.once('close', () => resolve()));
}

/**
 * Runs `work` (making a folder, say) before `source` is piped anywhere. A source that fails meanwhile
 * (an upload cut as it starts) is reported by the pipeline that meets it already failed; its 'error'
 * event, with nobody listening, would end the whole process.
 */
export async function beforePiping<T>(source: NodeJS.ReadableStream, work: () => Promise<T>): Promise<T> {
  const heldUntilPiped = () => {};
  source.on('error', heldUntilPiped);
  try {
    return await work();
  } finally {
    source.off('error', heldUntilPiped);
  }
}
