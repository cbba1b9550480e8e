import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcess {
  origin: string;
  child: ChildProcess;
  /**
   * SIGTERM, as an operator would, and wait until the process has exited; resolves with its exit code:
   * 0 when it closed everything, 1 when its shutdown grace ran out (server.ts).
   */
  stop(): Promise<number | null>;
}

/**
 * The Node.js flags the server runs with, wherever it is started: `npm start`, `npm run serve`, the
 * systemd unit (docs/deploy) and the servers of the benchmarks and end-to-end specs. A heap of at most
 * 384 MB (decision 091): V8 then collects before a burst's garbage grows the process past ~250 MB, where
 * on a large machine it would size the heap for gigabytes. server-flags.test.ts holds the start
 * commands to this list.
 */
export const SERVER_NODE_FLAGS = ['--max-old-space-size=384'] as const;

let built: Promise<void> | undefined;

/** The server bundle `npm start` runs, built once per process (scripts/build-server.mjs). */
export function buildServerOnce(): Promise<void> {
  built ??= new Promise((resolve, reject) => {
    execFile(process.execPath, ['scripts/build-server.mjs'], (error, _stdout, stderr) =>
      error ? reject(new Error(`No se pudo compilar el servidor: ${stderr || error.message}`)) : resolve(),
    );
  });
  return built;
}

/**
 * The real server as `npm start` runs it (`node <SERVER_NODE_FLAGS> dist-server/server.mjs`) on a data folder prepared
 * by the caller, without demo content; resolves once `/api/ready` answers. End-to-end specs with a
 * server of their own and the benchmarks use it.
 */
export async function startServerProcess(options: {
  port: number;
  dataDir: string;
  /** Named in the error when it does not start. */
  name: string;
  env?: Record<string, string>;
  /** Extra Node.js flags, e.g. `--cpu-prof` for a benchmark profile. */
  nodeArgs?: string[];
  /** A file its standard output (the JSON log) is written to; otherwise it is dropped. */
  logFile?: string;
}): Promise<ServerProcess> {
  const origin = `http://127.0.0.1:${options.port}`;
  await buildServerOnce();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(options.nodeArgs ?? []), 'dist-server/server.mjs'], {
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      DATABASE_URL: '',
      COMANDO_DEMO: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: origin,
      ...options.env,
    },
    stdio: ['ignore', options.logFile ? fs.openSync(options.logFile, 'a') : 'ignore', 'inherit'],
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    return exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) return { origin, child, stop };
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`El servidor ${options.name} no arrancó en 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
