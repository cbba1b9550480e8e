import { pipeline, Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '#server/platform/config/config';
import { StorageUnavailableError } from '#server/platform/http/errors';
import { isStorageKey, newStorageKey, type PhotoStorage, s3Location } from './photo-storage';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/** Parts of a multipart upload: S3's minimum. Smaller photos go up in one PutObject. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts in flight per upload: bounds the memory one upload holds to PART_SIZE × this. */
const PART_QUEUE = 2;

/**
 * Waits between the deletes of a failed upload's key, doubling from 1 s: ten tries over about 8.5 minutes
 * (each try also has its own deadline) before the key is left as an orphan (docs/decisions/058).
 */
export const CLEANUP_WAITS_MS = [1, 2, 4, 8, 16, 32, 64, 128, 256].map((s) => s * 1_000);

export interface S3StorageOptions {
  /** The waits between the deletes of a failed upload's key (tests: ones they end themselves). */
  sleep?: (ms: number) => Promise<void>;
}

// Unref'd: a delete still waiting for its next try does not hold the process open at shutdown.
const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/**
 * The bucket did not answer (refused, cut, timed out, aborted by our deadline) or said it is failing
 * (5xx), as opposed to answering a refusal of this request (403, 400…), which stays an error of ours.
 */
function isUnavailable(error: unknown): boolean {
  if (error instanceof S3ServiceException) return (error.$metadata.httpStatusCode ?? 0) >= 500;
  return error instanceof Error;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}: ${error.message}${typeof code === 'string' ? ` (${code})` : ''}`;
}

function createS3Client(config: S3Config): S3Client {
  // Under Node 20 the SDK warns at start-up that its releases after January 2027 will need Node 22.
  // That is a note for whoever upgrades dependencies, not for the server's log: the SDK's own switch
  // silences it, unless the operator has set that switch.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Since 2025 the SDK adds a CRC32 checksum to every upload by default (headers, or an aws-chunked
    // trailer for bodies of unknown length) and asks for checksums on downloads. Several S3-compatible
    // servers (older MinIO, Ceph, R2, B2) reject those headers or that encoding. 'WHEN_REQUIRED' is the
    // behaviour every S3-compatible server and AWS accept; storage:migrate verifies copies by sha256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Each request (a read, one part of an upload) has S3_TIMEOUT_MS. Without throwOnRequestTimeout the
    // installed SDK only logs a warning when it runs out, and a frozen bucket holds the request forever.
    requestHandler: {
      connectionTimeout: Math.min(5_000, config.timeoutMs),
      requestTimeout: config.timeoutMs,
      throwOnRequestTimeout: true,
    },
  });
}

/**
 * The client with every request of one upload tied to `signal`. lib-storage sends its requests without a
 * signal, so `Upload.abort()` alone only ends the wait for them: a PutObject stays in flight and the SDK
 * even retries it, after the person was told nothing was stored. The AbortMultipartUpload it sends once
 * aborted is left to run.
 */
function clientTiedTo(client: S3Client, signal: AbortSignal): S3Client {
  const send = (command: Parameters<S3Client['send']>[0], options?: { abortSignal?: AbortSignal }) =>
    client.send(
      command,
      command instanceof AbortMultipartUploadCommand ? options : { ...options, abortSignal: signal },
    );
  return Object.assign(Object.create(client) as S3Client, { send });
}

/**
 * Photos in an S3-compatible bucket, each object at `<prefix><key>`. Uploads are streamed in parts
 * (lib-storage): an object appears only once the whole body has been read, and a failed multipart upload
 * is aborted, so a cut-off stream leaves no object. The bucket stays private: photos are served by the
 * app after its access check (docs/decisions/011-s3-storage.md).
 *
 * Every call has a deadline of `timeoutMs` (uploads: without progress), the SDK's retries included. A
 * bucket that does not answer in time, or answers 5xx, is a StorageUnavailableError (503 to the person);
 * an upload that fails is aborted and its key deleted, so a bucket that wakes up later cannot complete
 * it into a photo nobody saw stored (docs/decisions/032 and 058).
 */
export function createS3Storage(config: S3Config, options: S3StorageOptions = {}): PhotoStorage {
  const sleep = options.sleep ?? sleepFor;
  const client = createS3Client(config);
  const Bucket = config.bucket;
  const objectKey = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`Clave de almacenamiento inválida: ${key}`);
    return `${config.prefix}${key}`;
  };

  /** One call with a deadline over all its tries; `keep` runs before the deadline is lifted. */
  async function send<T>(operation: 'write' | 'read', call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error(`sin respuesta en ${config.timeoutMs} ms`)),
      config.timeoutMs,
    );
    try {
      return await call(deadline.signal);
    } catch (error) {
      if (deadline.signal.aborted) {
        throw new StorageUnavailableError(operation, `sin respuesta en ${config.timeoutMs} ms`);
      }
      if (isUnavailable(error) && !isNotFound(error)) throw new StorageUnavailableError(operation, describe(error));
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Deletes a failed upload's key until the bucket has confirmed it twice in a row, a wait apart. A bucket
   * that held requests (the upload's own PutObject, an earlier delete) may carry them out when it wakes
   * up, in any order: a delete it confirms can still be followed by the PutObject it held, and the next
   * one, sent later, removes that. Without two confirmations after the last wait, the key is left (an
   * orphan no row names).
   */
  async function removeQuietly(Key: string): Promise<void> {
    let confirmed = false;
    for (let attempt = 0; ; attempt++) {
      const deleted = await send('write', (abortSignal) =>
        client.send(new DeleteObjectCommand({ Bucket, Key }), { abortSignal }),
      ).then(
        () => true,
        () => false,
      );
      if (deleted && confirmed) return;
      confirmed = deleted;
      const wait = CLEANUP_WAITS_MS[attempt];
      if (wait === undefined) return;
      await sleep(wait);
    }
  }

  async function upload(
    key: string,
    body: Readable | Buffer,
    contentType: string,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    const Key = objectKey(key);
    signal?.throwIfAborted();
    let size = 0;
    let source: Readable | Buffer = body;
    // Remember a failure of the source itself: if aborting the multipart upload fails too, the caller
    // still learns why the upload stopped.
    let sourceError: unknown;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        progress();
        done(null, chunk);
      },
    });
    if (Buffer.isBuffer(body)) size = body.length;
    else {
      body.once('error', (error) => {
        sourceError = error;
      });
      // pipeline() passes a failure of either side to the other, so the upload sees a cut-off source.
      pipeline(body, counter, () => {});
      source = counter;
    }
    // Ends the requests this upload has in flight, and any try the SDK would make after them.
    const requests = new AbortController();
    const upload = new Upload({
      client: clientTiedTo(client, requests.signal),
      params: { Bucket, Key, Body: source, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: PART_QUEUE,
    });
    const stop = () => {
      requests.abort();
      void upload.abort();
    };

    // No progress (bytes read from the source, parts stored) for timeoutMs: the bucket is stuck.
    let stalled = false;
    let watchdog: NodeJS.Timeout | undefined;
    function progress() {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        stop();
      }, config.timeoutMs);
    }
    upload.on('httpUploadProgress', progress);
    signal?.addEventListener('abort', stop, { once: true });
    progress();
    try {
      await upload.done();
      if (signal?.aborted) throw signal.reason;
      return size;
    } catch (error) {
      // Nothing of a failed upload stays in flight (a part, the PutObject, a try the SDK would make).
      stop();
      counter.destroy();
      // A PutObject the bucket received whole may still be stored when it wakes up: remove it, without
      // making the person wait for a bucket that may not answer (no row ever names this key).
      void removeQuietly(Key);
      // Aborting cuts the source too: the person leaving is the reason, not the cut it caused.
      if (signal?.aborted) throw signal.reason;
      if (sourceError) throw sourceError;
      if (stalled) throw new StorageUnavailableError('write', `sin avance en ${config.timeoutMs} ms`);
      if (isUnavailable(error)) throw new StorageUnavailableError('write', describe(error));
      throw error;
    } finally {
      clearTimeout(watchdog);
      signal?.removeEventListener('abort', stop);
    }
  }

  return {
    driver: 's3',
    location: s3Location(config),

    async put(body, { suffix, contentType, signal }) {
      const key = newStorageKey(suffix);
      const size = await upload(key, body, contentType, signal);
      return { key, size };
    },

    async putAt(key, body, { contentType }) {
      return { size: await upload(key, body, contentType, undefined) };
    },

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        // The deadline covers the answer's headers; the body then streams at its own pace (each read of
        // the socket still bounded by the request timeout).
        const out = await send('read', (abortSignal) =>
          client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }), { abortSignal }),
        );
        if (!(out.Body instanceof Readable)) throw new Error('S3 devolvió un cuerpo que no es un flujo de Node');
        return { stream: out.Body, size: out.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async delete(key) {
      if (!isStorageKey(key)) return;
      // S3 answers 204 for keys that do not exist.
      await send('write', (abortSignal) =>
        client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }), { abortSignal }),
      );
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        await send('read', (abortSignal) =>
          client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }), { abortSignal }),
        );
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  };
}
