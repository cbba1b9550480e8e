import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '#server/testing/server-process';

/** Finds the PostgreSQL server binaries installed by Debian's packages (or on PATH). */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  try {
    const pgCtl = execFileSync('which', ['pg_ctl'], { encoding: 'utf8' }).trim();
    if (pgCtl) return path.dirname(pgCtl);
  } catch {
    // not on PATH
  }
  return undefined;
}

export interface PostgresCluster {
  url: string;
  /** Stops the server for good and removes its files. */
  stop(): Promise<void>;
  /**
   * Stops the server (open connections are cut), keeping its files: `resume` starts it again. 'fast'
   * (the default) ends each session with 57P01; 'immediate' kills them without a word, as a crash would,
   * and the next start recovers from the WAL.
   */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a paused server again on the same port; resolves once it accepts connections. */
  resume(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL cluster in a temporary folder, listening on loopback only.
 * initdb refuses to run as root, so as root it runs as the `postgres` user.
 */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  return startCluster(bin, {
    make: (dataDir, run) =>
      run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale']),
    settings: '-c synchronous_commit=off',
  });
}

export interface StandbyPair {
  /**
   * Commits wait until the standby has applied them (synchronous_commit=remote_apply). `lose()` is the
   * machine lost: the postmaster and every process of the cluster killed with SIGKILL, its files deleted.
   */
  primary: PostgresCluster & { lose(): Promise<void> };
  /** A streaming standby made with `pg_basebackup -R`; read-only until promoted. */
  standby: PostgresCluster & { promote(): Promise<void> };
}

/**
 * A primary and its streaming standby, as docs/deploy/postgresql-standby.md sets them up with Debian's
 * packages: the standby cloned with `pg_basebackup -R` (standby.signal and primary_conninfo written for
 * it), the primary waiting for it at each commit (synchronous_standby_names, synchronous_commit).
 */
export async function startStandbyPair(bin: string): Promise<StandbyPair> {
  const primary = await startCluster(bin, {
    make: (dataDir, run) =>
      run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale']),
    settings: '-c synchronous_standby_names=* -c synchronous_commit=remote_apply -c wal_level=replica',
  });
  const port = new URL(primary.url).port;
  const standby = await startCluster(bin, {
    make: (dataDir, run) =>
      run('pg_basebackup', [
        '-d',
        `host=127.0.0.1 port=${port} user=postgres application_name=comando_espera`,
        '-D',
        dataDir,
        '-R',
        '-X',
        'stream',
      ]),
    settings: '-c hot_standby=on',
  });
  return {
    primary: {
      ...primary,
      async lose() {
        const postmaster = Number(fs.readFileSync(path.join(primary.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        for (const pid of [postmaster, ...childrenOf(postmaster)]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
        fs.rmSync(path.dirname(primary.dataDir), { recursive: true, force: true });
      },
    },
    standby: {
      ...standby,
      async promote() {
        standby.run('pg_ctl', ['-D', standby.dataDir, '-w', 'promote']);
      },
    },
  };
}

/** The processes whose parent is `pid` (Linux's /proc): a postmaster's backends and helpers. */
function childrenOf(pid: number): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      // 'pid (comm) state ppid …': the command may hold spaces, so read after its closing bracket.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return ppid === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

type Run = (cmd: string, args: string[]) => void;

async function startCluster(
  bin: string,
  how: { make: (dataDir: string, run: Run) => void; settings: string },
): Promise<PostgresCluster & { dataDir: string; run: Run }> {
  const isRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-pg-'));
  const dataDir = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe' });
    else execFileSync(full, args, { stdio: 'pipe' });
  };
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  how.make(dataDir, run);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300 ${how.settings}`;
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', opts, '-l', path.join(dir, 'log.txt'), '-w', 'start']);
  const halt = (mode: 'immediate' | 'fast') =>
    new Promise<void>((resolve) => {
      const full = path.join(bin, 'pg_ctl');
      const args = ['-D', dataDir, '-m', mode, 'stop'];
      const child = isRoot ? spawn('runuser', ['-u', 'postgres', '--', full, ...args]) : spawn(full, args);
      child.on('exit', () => resolve());
      child.on('error', () => resolve());
    });
  start();
  return {
    dataDir,
    run,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await halt('immediate');
      fs.rmSync(dir, { recursive: true, force: true });
    },
    // Fast by default, a clean shutdown: with fsync and synchronous_commit off (above), an immediate
    // stop may lose the last commits (the machine does not crash, so the files stay whole).
    pause: (mode = 'fast') => halt(mode),
    async resume() {
      start();
    },
  };
}
