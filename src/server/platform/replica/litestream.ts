import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ReplicaConfig } from '#server/platform/config/config';
import { PRIVATE_FILE_MODE } from '#server/platform/lib/private-files';
import type { LogPosition, PositionSample } from './copy-lag';

/*
 * Litestream (v0.3.13, from the @flydotio/litestream package) keeps SQLite's off-machine copy (decision
 * 106). Only its documented command line and YAML configuration are used: `replicate -config`, `restore
 * -config -if-replica-exists -o`, `generations`, and its Prometheus address for the positions.
 */

const run = promisify(execFile);

/** A problem with the copy, told in one plain sentence. */
export class ReplicaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplicaError';
  }
}

/**
 * The binary @flydotio/litestream installed for this machine. Its own `litestream` command runs it
 * through spawnSync, which loses the exit code and does not pass signals on, so the binary is run itself.
 */
export function litestreamBinary(): string {
  const name = `@flydotio/litestream-${process.platform}-${process.arch}`;
  try {
    const folder = path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
    return path.join(folder, 'litestream');
  } catch {
    throw new ReplicaError(
      `Litestream no está instalado para ${process.platform}-${process.arch} (${name}): ejecuta npm install.`,
    );
  }
}

/** Where Litestream's configuration is written: beside the database, its user's only. */
export const litestreamConfigFile = (databaseFile: string) => path.join(path.dirname(databaseFile), 'litestream.yml');

const yamlText = (value: string) => JSON.stringify(value);

/**
 * Litestream's YAML for one database and its one replica. The bucket's keys are not written here: they
 * go to Litestream in its environment (litestreamEnv). `addr`: where it serves its metrics.
 */
export function litestreamYaml(databaseFile: string, replica: ReplicaConfig, addr?: string): string {
  const lines = [
    ...(addr ? [`addr: ${yamlText(addr)}`] : []),
    'dbs:',
    `  - path: ${yamlText(databaseFile)}`,
    '    monitor-interval: 1s',
    '    replicas:',
  ];
  if (replica.kind === 'file') {
    lines.push('      - type: file', `        path: ${yamlText(replica.path)}`);
  } else {
    lines.push(
      '      - type: s3',
      `        bucket: ${yamlText(replica.bucket)}`,
      `        path: ${yamlText(replica.path)}`,
      `        region: ${yamlText(replica.region)}`,
      ...(replica.endpoint ? [`        endpoint: ${yamlText(replica.endpoint)}`] : []),
      `        force-path-style: ${replica.forcePathStyle}`,
    );
  }
  lines.push(`        sync-interval: ${replica.syncSeconds}s`);
  return `${lines.join('\n')}\n`;
}

/** The environment Litestream runs with: the bucket's keys in the variables it documents. */
export function litestreamEnv(replica: ReplicaConfig): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  if (replica.kind === 's3') {
    env.LITESTREAM_ACCESS_KEY_ID = replica.accessKeyId;
    env.LITESTREAM_SECRET_ACCESS_KEY = replica.secretAccessKey;
  }
  return env;
}

function writeConfig(databaseFile: string, replica: ReplicaConfig, addr?: string): string {
  const file = litestreamConfigFile(databaseFile);
  fs.writeFileSync(file, litestreamYaml(databaseFile, replica, addr), { mode: PRIVATE_FILE_MODE });
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  return file;
}

/** Whether the copy holds a generation of this database (`litestream generations`). */
export async function replicaGenerations(databaseFile: string, replica: ReplicaConfig): Promise<string[]> {
  const config = writeConfig(databaseFile, replica);
  const { stdout } = await run(litestreamBinary(), ['generations', '-config', config, databaseFile], {
    env: litestreamEnv(replica),
  });
  // A header line, then one line per replica and generation: name, generation, lag, start, end.
  return stdout
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/)[1] ?? '')
    .filter((g) => /^[0-9a-f]{16}$/.test(g));
}

/**
 * `litestream restore -if-replica-exists`: the copy's latest state into `databaseFile`, which must not
 * exist. Answers false when the copy holds nothing (nothing was written).
 */
export async function restoreFromReplica(databaseFile: string, replica: ReplicaConfig): Promise<boolean> {
  if (fs.existsSync(databaseFile)) {
    throw new ReplicaError(
      `${databaseFile} ya existe: la copia se restaura en una carpeta de datos sin base de datos.`,
    );
  }
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true, mode: 0o700 });
  const config = writeConfig(databaseFile, replica);
  try {
    await run(
      litestreamBinary(),
      ['restore', '-config', config, '-if-replica-exists', '-o', databaseFile, databaseFile],
      { env: litestreamEnv(replica) },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
    throw new ReplicaError(`Litestream no pudo restaurar la copia: ${stderr}`);
  }
  if (!fs.existsSync(databaseFile)) return false;
  fs.chmodSync(databaseFile, PRIVATE_FILE_MODE);
  return true;
}

/** A free loopback port for Litestream's metrics. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The positions in Litestream's metrics text: its shadow WAL (local) and its replica's WAL (the copy). */
export function positionsInMetrics(text: string): PositionSample | undefined {
  const value = (name: string) => {
    const match = new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text);
    return match ? BigInt(Math.trunc(Number(match[1]))) : undefined;
  };
  const localIndex = value('litestream_shadow_wal_index');
  const localSize = value('litestream_shadow_wal_size');
  if (localIndex === undefined || localSize === undefined) return undefined;
  const copyIndex = value('litestream_replica_wal_index');
  const copyOffset = value('litestream_replica_wal_offset');
  const copy: LogPosition | undefined =
    copyIndex === undefined || copyOffset === undefined ? undefined : [copyIndex, copyOffset];
  const syncs = value('litestream_sync_count');
  return { local: [localIndex, localSize], copy, ...(syncs === undefined ? {} : { syncs }) };
}

export interface LitestreamLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Litestream {
  /** Litestream's positions now; undefined while it does not answer. */
  positions(): Promise<PositionSample | undefined>;
  /** Ends `litestream replicate` (its last sync first) and stops watching it. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;

/** A `litestream replicate` a previous run left (the server killed with SIGKILL): it would copy twice. */
function stopLeftover(pidFile: string, config: string): void {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (command.includes('replicate') && command.includes(config)) process.kill(pid, 'SIGTERM');
  } catch {
    // none left, or not this platform's /proc
  }
}

/**
 * Starts `litestream replicate` for the database and keeps it running: if it ends, it is started again
 * (after 1 s, then longer, up to 30 s), and each end is logged. The server's close stops it.
 */
export async function startLitestream(
  databaseFile: string,
  replica: ReplicaConfig,
  log: LitestreamLog,
): Promise<Litestream> {
  const binary = litestreamBinary();
  const port = await freeLoopbackPort();
  const addr = `127.0.0.1:${port}`;
  const config = writeConfig(databaseFile, replica, addr);
  const pidFile = path.join(path.dirname(databaseFile), 'litestream.pid');
  stopLeftover(pidFile, config);
  let child: ChildProcess | undefined;
  let stopping = false;
  let restartMs = RESTART_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const launch = () => {
    const started = Date.now();
    const current = spawn(binary, ['replicate', '-config', config], {
      env: litestreamEnv(replica),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = current;
    if (current.pid) fs.writeFileSync(pidFile, `${current.pid}\n`, { mode: PRIVATE_FILE_MODE });
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (/level=(ERROR|WARN)/.test(line)) log.warn(`litestream: ${line}`);
      }
    };
    current.stdout?.on('data', forward);
    current.stderr?.on('data', forward);
    current.on('error', (error) => log.error(`litestream could not start: ${error.message}`));
    current.on('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return;
      // A run that lasted makes the next wait short again.
      if (Date.now() - started > RESTART_MAX_MS) restartMs = RESTART_MIN_MS;
      log.error(`litestream replicate ended (${signal ?? `code ${code}`}); starting it again in ${restartMs} ms`);
      timer = setTimeout(launch, restartMs);
      timer.unref();
      restartMs = Math.min(RESTART_MAX_MS, restartMs * 2);
    });
  };
  launch();
  log.info(
    `litestream replicate started: ${replica.kind === 's3' ? `s3://${replica.bucket}/${replica.path}` : replica.path}`,
  );

  return {
    async positions() {
      try {
        const answer = await fetch(`http://${addr}/metrics`, { signal: AbortSignal.timeout(2_000) });
        return answer.ok ? positionsInMetrics(await answer.text()) : undefined;
      } catch {
        return undefined;
      }
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      const current = child;
      if (!current || current.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => current.kill('SIGKILL'), STOP_GRACE_MS);
        current.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        current.kill('SIGTERM');
      });
      fs.rmSync(pidFile, { force: true });
    },
  };
}
