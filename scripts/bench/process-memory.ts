import fs from 'node:fs';

/** A field of /proc/<pid>/status in kB (VmRSS: now; VmHWM: the most ever), 0 once the process is gone. */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and all its descendants (the photo converters of the server), from /proc. */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  return tree;
}

/** Resident memory (MB) of the server process itself and of its whole tree. */
export function memoryMb(serverPid: number): { server: number; tree: number } {
  const tree = processTree(serverPid).reduce((sum, pid) => sum + statusKb(pid, 'VmRSS'), 0);
  return { server: statusKb(serverPid, 'VmRSS') / 1024, tree: tree / 1024 };
}

/**
 * CPU time (user + system, seconds) the process has used so far, 0 once it is gone. On a machine shared
 * with other work, the CPU a request costs moves much less than the time it takes.
 */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state is the 3rd field, utime the 14th and stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100; // USER_HZ, 100 on Linux
  } catch {
    return 0;
  }
}
