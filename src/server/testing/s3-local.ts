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
  store: { listObjects: ListObjects };
}
interface ListOptions {
  delimiter?: string;
  startAfter?: string;
  prefix?: string;
  maxKeys?: number;
}
type ListObjects = (
  bucket: string,
  options: ListOptions,
) => Promise<{ objects: { key: string }[]; commonPrefixes: string[]; isTruncated: boolean }>;

/**
 * S3 groups every key under the prefix with the delimiter after it into one common prefix, however deep
 * the key ('a/b/c/d' under 'a/' with '/' gives 'a/b/'). s3rver's walk of its folders skips the folders
 * below a prefix's first level, so a prefix holding only deeper keys went missing (Litestream lists its
 * generations so: `<path>/generations/` with '/', each generation holding only `snapshots/` and `wal/`).
 * The whole listing under the prefix is read and grouped here, keys and prefixes counted together
 * against MaxKeys as S3 counts them.
 */
function groupedAsS3(list: ListObjects): ListObjects {
  return async (bucket, options) => {
    const delimiter = options.delimiter ?? '';
    if (!delimiter) return list(bucket, options);
    const prefix = options.prefix ?? '';
    const all = await list(bucket, { ...options, delimiter: '', maxKeys: Number.POSITIVE_INFINITY });
    const entries: { name: string; object?: { key: string } }[] = [];
    const seen = new Set<string>();
    for (const object of all.objects) {
      const at = object.key.slice(prefix.length).indexOf(delimiter);
      if (at === -1) entries.push({ name: object.key, object });
      else {
        const common = object.key.slice(0, prefix.length + at + delimiter.length);
        if (!seen.has(common)) {
          seen.add(common);
          entries.push({ name: common });
        }
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const kept = entries.slice(0, options.maxKeys ?? Number.POSITIVE_INFINITY);
    return {
      objects: kept.flatMap((e) => (e.object ? [e.object] : [])),
      commonPrefixes: kept.filter((e) => !e.object).map((e) => e.name),
      isTruncated: kept.length < entries.length,
    };
  };
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export type S3Settings = Extract<StorageConfig, { driver: 's3' }>;

/** A request as a server saw it: its method and its path, without the query string. */
export interface SeenRequest {
  method: string;
  path: string;
}

/** Requests in the order they were seen, and a wait for them that ends on the event itself (no clock). */
class RequestLog<T extends SeenRequest> {
  readonly entries: T[] = [];
  private readonly waiters = new Set<() => void>();

  add(entry: T): void {
    this.entries.push(entry);
    for (const check of this.waiters) check();
  }

  /** The matching requests, once there are at least `count` of them. */
  when(count: number, match: (request: T) => boolean = () => true): Promise<T[]> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.entries.filter(match);
        if (found.length < count) return false;
        this.waiters.delete(check);
        resolve(found);
        return true;
      };
      if (!check()) this.waiters.add(check);
    });
  }
}

const pathOf = (target: string) => target.split('?', 1)[0] ?? target;

/** s3rver's fixed credentials (it accepts any well-signed request with these). */
export const S3_LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Local {
  url: string;
  bucket: string;
  /** Storage settings pointing at this server's bucket (optionally under a key prefix). */
  config(prefix?: string): S3Settings;
  /** Every object key in the bucket, sorted (read from s3rver's folder, independent of the driver). */
  listKeys(): string[];
  /** The path of an object key in a request (path style: `/<bucket>/<key>`). */
  objectPath(key: string): string;
  /** Requests s3rver is done with (answered, or dropped), in that order, with the status it set. */
  readonly answered: readonly (SeenRequest & { status: number })[];
  /** Resolves once s3rver is done with at least `count` requests that match. */
  whenAnswered(count: number, match?: (request: SeenRequest) => boolean): Promise<SeenRequest[]>;
  stop(): Promise<void>;
}

function portFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) => reject(new Error(`El puerto ${port} del S3 local no está libre: ${error.message}`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/**
 * A local S3-compatible server (s3rver) on 127.0.0.1, with a fresh temporary folder and one bucket.
 * Port 0 picks a free one. Used by the server tests and by the end-to-end stand-in.
 */
export async function startS3Local(options: { port?: number; bucket?: string } = {}): Promise<S3Local> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const bucket = options.bucket ?? 'comando-test';
  // s3rver's run() never settles when its port is taken (the error goes to no listener and ends the
  // process), which would leave its folder behind: a port given is tried first, and refused with a reason.
  if (options.port) await portFree(options.port);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  server.store.listObjects = groupedAsS3(server.store.listObjects.bind(server.store));
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  const answered = new RequestLog<SeenRequest & { status: number }>();
  // 'close' comes once the answer is written (or the connection is gone): the object is stored or removed.
  server.httpServer?.on('request', (req, res) =>
    res.once('close', () =>
      answered.add({ method: req.method ?? '', path: pathOf(req.url ?? ''), status: res.statusCode }),
    ),
  );
  return {
    url,
    bucket,
    objectPath: (key) => `/${bucket}/${key}`,
    answered: answered.entries,
    whenAnswered: (count, match) => answered.when(count, match),
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
  /** Whole requests received on held connections, in the order they came in full. */
  readonly requests: readonly SeenRequest[];
  /** Resolves once at least `count` whole requests that match have been received and held. */
  whenHeld(count: number, match?: (request: SeenRequest) => boolean): Promise<SeenRequest[]>;
  /**
   * The bucket wakes up: every held connection's bytes are passed on to the real server, which carries
   * out what it received even when the client has gone (its answer then goes nowhere), and new
   * connections go straight through. With `only`, just the held requests that match are passed on, and
   * the bucket stays frozen for the rest (it carries out what it held in an order the test chooses).
   */
  thaw(only?: (request: SeenRequest) => boolean): void;
  close(): Promise<void>;
}

/** The request line of `data` once the whole request (headers and body) is in it. */
function wholeRequest(data: Buffer): SeenRequest | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [line = '', ...headers] = data.subarray(0, end).toString('latin1').split('\r\n');
  const [method = '', target = ''] = line.split(' ');
  const header = (name: string) =>
    headers
      .find((h) => h.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const body = data.subarray(end + 4);
  const whole = /chunked/i.test(header('transfer-encoding'))
    ? body.subarray(-5).toString('latin1') === '0\r\n\r\n'
    : body.length >= Number(header('content-length') || 0);
  return whole ? { method, path: pathOf(target) } : undefined;
}

/**
 * A bucket that freezes: it accepts connections and reads what is sent, and answers nothing until thawed,
 * as S3 did when it stopped answering. In front of a real S3-compatible server (`target`).
 */
export async function startFrozenBucket(target: string): Promise<FrozenBucket> {
  const { port: targetPort, hostname } = new URL(target);
  const sockets = new Set<net.Socket>();
  const held: { socket: net.Socket; chunks: Buffer[]; request?: SeenRequest }[] = [];
  const requests = new RequestLog<SeenRequest>();
  let frozen = true;
  const forward = (socket: net.Socket, first: Buffer[]) => {
    const upstream = net.connect(Number(targetPort), hostname);
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    upstream.write(Buffer.concat(first));
    if (socket.destroyed) {
      // The client gave up: the server still gets what it had sent, and its answer goes nowhere.
      upstream.resume();
      return;
    }
    // The client's end is not passed on: a server that sees it may drop the request it is carrying out.
    socket.pipe(upstream, { end: false });
    upstream.pipe(socket);
    socket.on('close', () => {
      upstream.unpipe(socket);
      upstream.resume();
    });
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (!frozen) return forward(socket, []);
    const entry: (typeof held)[number] = { socket, chunks: [] };
    held.push(entry);
    socket.on('data', (chunk: Buffer) => {
      entry.chunks.push(chunk);
      if (entry.request) return;
      entry.request = wholeRequest(Buffer.concat(entry.chunks));
      if (entry.request) requests.add(entry.request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: requests.entries,
    whenHeld: (count, match) => requests.when(count, match),
    thaw(only) {
      if (!only) frozen = false;
      for (const entry of [...held]) {
        if (only && !(entry.request && only(entry.request))) continue;
        held.splice(held.indexOf(entry), 1);
        entry.socket.removeAllListeners('data');
        entry.socket.pause();
        forward(entry.socket, entry.chunks);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
