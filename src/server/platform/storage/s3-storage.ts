import { pipeline, Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '#server/platform/config/config';
import { isStorageKey, newStorageKey, type PhotoStorage, s3Location } from './photo-storage';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/** Parts of a multipart upload: S3's minimum. Smaller photos go up in one PutObject. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts in flight per upload: bounds the memory one upload holds to PART_SIZE × this. */
const PART_QUEUE = 2;

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
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
    // Fail instead of hanging when the endpoint stops answering.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

/**
 * Photos in an S3-compatible bucket, each object at `<prefix><key>`. Uploads are streamed in parts
 * (lib-storage): an object appears only once the whole body has been read, and a failed multipart upload
 * is aborted, so a cut-off stream leaves no object. The bucket stays private: photos are served by the
 * app after its access check (docs/decisions/011-s3-storage.md).
 */
export function createS3Storage(config: S3Config): PhotoStorage {
  const client = createS3Client(config);
  const Bucket = config.bucket;
  const objectKey = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`Clave de almacenamiento inválida: ${key}`);
    return `${config.prefix}${key}`;
  };

  async function upload(key: string, body: Readable | Buffer, contentType: string): Promise<number> {
    const Key = objectKey(key);
    if (Buffer.isBuffer(body)) {
      await new Upload({ client, params: { Bucket, Key, Body: body, ContentType: contentType } }).done();
      return body.length;
    }
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // Remember a failure of the source itself: if aborting the multipart upload fails too, the caller
    // still learns why the upload stopped.
    let sourceError: unknown;
    body.once('error', (error) => {
      sourceError = error;
    });
    // pipeline() passes a failure of either side to the other, so the upload sees a cut-off source.
    pipeline(body, counter, () => {});
    try {
      await new Upload({
        client,
        params: { Bucket, Key, Body: counter, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: PART_QUEUE,
      }).done();
    } catch (error) {
      counter.destroy();
      throw sourceError ?? error;
    }
    return size;
  }

  return {
    driver: 's3',
    location: s3Location(config),

    async put(body, { suffix, contentType }) {
      const key = newStorageKey(suffix);
      const size = await upload(key, body, contentType);
      return { key, size };
    },

    async putAt(key, body, { contentType }) {
      return { size: await upload(key, body, contentType) };
    },

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
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
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  };
}
