/**
 * What the benchmarks read of workerd's process from /proc (Linux): which child of ours it is, the
 * CPU time it has used, and its resident memory. CPU per operation is the difference of cpuSeconds
 * around a run divided by the operations; it includes everything that process did meanwhile.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux USER_HZ: the unit of utime and stime in /proc/<pid>/stat (`getconf CLK_TCK`). */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * workerd's processes: the children of this process named workerd. Miniflare run directly has one;
 * wrangler's unstable_startWorker has two (the Worker's runtime, and its proxy in front).
 */
export function workerdPids(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (Number(fields[1]) === process.pid && comm.startsWith('workerd')) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The one workerd child of this process (Miniflare run directly); throws when there is none. */
export function workerdPid(): number {
  const [pid] = workerdPids();
  if (pid === undefined) throw new Error('workerd process not found among our children');
  return pid;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the comm: state is field 3 (index 0 here); utime and stime are fields 14 and 15.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Resident memory now (VmRSS) and its high-water mark over the process's life (VmHWM), MiB. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}
