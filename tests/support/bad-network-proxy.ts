// A bad phone network in front of a local server, for the field benchmark and tests: a TCP proxy that
// limits bandwidth in each direction, adds latency, and cuts every connection at a fixed interval
// (what is still in flight is lost, as on a dropped 2G link).
import net from 'node:net';

export interface BadNetworkOptions {
  /** Where the real server listens. */
  target: { host: string; port: number };
  /** Phone to server, in kilobits per second. */
  upKbps: number;
  /** Server to phone, in kilobits per second. */
  downKbps: number;
  /** Round trip added to every exchange, in milliseconds (half each way). */
  rttMs: number;
  /** Every open connection is cut this often (null: never). */
  cutEveryMs: number | null;
}

export interface BadNetworkStats {
  /** Bytes the phone put on the link (what crossed it, or was in flight when it was cut). */
  upBytes: number;
  downBytes: number;
  connections: number;
  /** Connections cut while open. */
  cuts: number;
}

export interface BadNetwork {
  url: string;
  port: number;
  stats: BadNetworkStats;
  close(): Promise<void>;
}

/** Bytes queued on the link per connection and direction before the sender is paused (TCP's window). */
const WINDOW_BYTES = 64 * 1024;
const PIECE_BYTES = 8 * 1024;

/** One direction of the link, shared by every connection (a phone has one radio). */
function link(kbps: number, delayMs: number) {
  const bytesPerMs = (kbps * 1000) / 8 / 1000;
  let freeAt = 0;
  return {
    /** When a piece of `size` bytes sent now arrives: after the pieces before it, at the link's rate. */
    arrival(size: number): number {
      const now = performance.now();
      freeAt = Math.max(now, freeAt) + size / bytesPerMs;
      return freeAt + delayMs;
    },
    /** A cut: whatever was queued is gone, the link is free again. */
    reset() {
      freeAt = performance.now();
    },
  };
}

export async function startBadNetwork(options: BadNetworkOptions): Promise<BadNetwork> {
  const up = link(options.upKbps, options.rttMs / 2);
  const down = link(options.downKbps, options.rttMs / 2);
  const stats: BadNetworkStats = { upBytes: 0, downBytes: 0, connections: 0, cuts: 0 };
  const open = new Set<{ client: net.Socket; server: net.Socket }>();

  /** Carries `from`'s bytes to `to` through `way`, pausing `from` while its window is full. */
  function carry(from: net.Socket, to: net.Socket, way: ReturnType<typeof link>, count: (n: number) => void) {
    let queued = 0;
    from.on('data', (chunk: Buffer) => {
      count(chunk.length);
      for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
        const piece = chunk.subarray(at, at + PIECE_BYTES);
        queued += piece.length;
        const wait = way.arrival(piece.length) - performance.now();
        setTimeout(
          () => {
            queued -= piece.length;
            if (!to.destroyed) to.write(piece);
            if (queued < WINDOW_BYTES / 4 && from.isPaused()) from.resume();
          },
          Math.max(0, wait),
        );
      }
      if (queued >= WINDOW_BYTES) from.pause();
    });
    from.on('end', () => {
      const wait = way.arrival(0) - performance.now();
      setTimeout(() => to.end(), Math.max(0, wait));
    });
  }

  const server = net.createServer((client) => {
    stats.connections += 1;
    const upstream = net.connect(options.target.port, options.target.host);
    const pair = { client, server: upstream };
    open.add(pair);
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    carry(client, upstream, up, (n) => {
      stats.upBytes += n;
    });
    carry(upstream, client, down, (n) => {
      stats.downBytes += n;
    });
  });

  const cutter =
    options.cutEveryMs === null
      ? undefined
      : setInterval(() => {
          for (const pair of open) {
            stats.cuts += 1;
            pair.client.destroy();
            pair.server.destroy();
          }
          open.clear();
          up.reset();
          down.reset();
        }, options.cutEveryMs);

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(cutter);
        for (const pair of open) {
          pair.client.destroy();
          pair.server.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
