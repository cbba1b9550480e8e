import fs from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { StorageConfig } from '#server/platform/config/config';

// s3rver ships no type declarations: this is the part of its API we use.
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export type S3Settings = Extract<StorageConfig, { driver: 's3' }>;

/** s3rver's fixed credentials (it accepts any well-signed request with these). */
export const S3_LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Local {
  url: string;
  bucket: string;
  /** Storage settings pointing at this server's bucket (optionally under a key prefix). */
  config(prefix?: string): S3Settings;
  /** Every object key in the bucket, sorted (read from s3rver's folder, independent of the driver). */
  listKeys(): string[];
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) on 127.0.0.1, with a fresh temporary folder and one bucket.
 * Port 0 picks a free one. Used by the server tests and by the end-to-end stand-in.
 */
export async function startS3Local(options: { port?: number; bucket?: string } = {}): Promise<S3Local> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const bucket = options.bucket ?? 'comando-test';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    bucket,
    config: (prefix = '') => ({
      driver: 's3',
      endpoint: url,
      region: 'us-east-1',
      bucket,
      ...S3_LOCAL_CREDENTIALS,
      forcePathStyle: true,
      prefix,
      timeoutMs: 30_000,
    }),
    listKeys() {
      // s3rver keeps each object as `<key>._S3rver_object` (plus metadata files) under the bucket folder.
      const root = path.join(directory, bucket);
      const walk = (dir: string): string[] =>
        fs.existsSync(dir)
          ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
              const full = path.join(dir, e.name);
              return e.isDirectory() ? walk(full) : [full];
            })
          : [];
      return walk(root)
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => path.relative(root, f).slice(0, -'._S3rver_object'.length).split(path.sep).join('/'))
        .sort();
    },
    async stop() {
      // Keep-alive sockets of the SDK would hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface FrozenBucket {
  url: string;
  /** Connections held so far (each accepted, read, never answered). */
  readonly held: number;
  /**
   * The bucket wakes up: every held connection's bytes are passed on to the real server (which may then
   * complete a request the client gave up on), and new connections go straight through.
   */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A bucket that freezes: it accepts connections and reads what is sent, and answers nothing until thawed,
 * as S3 did when it stopped answering. In front of a real S3-compatible server (`target`).
 */
export async function startFrozenBucket(target: string): Promise<FrozenBucket> {
  const { port: targetPort, hostname } = new URL(target);
  const sockets = new Set<net.Socket>();
  const held: { socket: net.Socket; chunks: Buffer[] }[] = [];
  let frozen = true;
  const forward = (socket: net.Socket, first: Buffer[]) => {
    const upstream = net.connect(Number(targetPort), hostname);
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    upstream.write(Buffer.concat(first));
    if (socket.destroyed) {
      // The client gave up; the server still gets what it had sent, and its answer goes nowhere.
      upstream.resume();
      upstream.end();
      return;
    }
    socket.pipe(upstream).pipe(socket);
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (!frozen) return forward(socket, []);
    const entry = { socket, chunks: [] as Buffer[] };
    held.push(entry);
    socket.on('data', (chunk: Buffer) => {
      if (frozen) entry.chunks.push(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get held() {
      return held.length;
    },
    thaw() {
      frozen = false;
      for (const { socket, chunks } of held.splice(0)) {
        socket.removeAllListeners('data');
        socket.pause();
        forward(socket, chunks);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
