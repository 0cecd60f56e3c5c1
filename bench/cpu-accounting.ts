import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of a server process over a measured window, from /proc (Linux): the whole process
 * (utime + stime of all its threads, those that exited included), the main thread, and each
 * thread by name (thread-names.ts names them), divided by the requests the window completed.
 * Also what the rest of the machine did meanwhile (/proc/stat) and the CPU of this process, the
 * load generator.
 *
 * The kernel counts in clock ticks (`getconf CLK_TCK`, 100 Hz on most Linux: 10 ms), charged to
 * whichever thread runs at the tick. Over a 15 s window at 2,000 requests/s (30,000 requests) one
 * tick is 0.3 µs per request, and the sampling error of a thread that ran for N ticks is about
 * √N ticks (±3 % at 1,000 ticks). Short windows or idle threads are noise.
 */
export interface CpuSnapshot {
  readonly pid: number;
  /** process.hrtime, ns: the same monotonic clock as V8's profiles (profile-summary --window). */
  readonly at: bigint;
  readonly processTicks: number;
  readonly threads: ReadonlyMap<number, { readonly name: string; readonly ticks: number }>;
  readonly machineBusyTicks: number;
  readonly driver: NodeJS.CpuUsage;
}

export interface ThreadGroupCpu {
  readonly name: string;
  readonly threads: number;
  readonly microsPerRequest: number;
}

export interface CpuPerRequest {
  readonly pid: number;
  readonly requests: number;
  readonly windowSeconds: number;
  readonly clockTicksPerSecond: number;
  /** The server, all threads, µs of CPU per request completed in the window. */
  readonly processMicros: number;
  readonly mainThreadMicros: number;
  /** By thread name, main thread first, then the busiest; threads that exited in the window last. */
  readonly threads: readonly ThreadGroupCpu[];
  /** The server's share of the machine in the window, in cores (2 = both cores of 2). */
  readonly serverCores: number;
  readonly loadGeneratorCores: number;
  /** Everything else on the machine (other engineers' work, the kernel), in cores. */
  readonly otherCores: number;
  /** The window on the monotonic clock, µs, for `profile-summary --window`. */
  readonly windowMicros: { readonly from: number; readonly to: number };
}

/**
 * The process total less its live threads: threads that exited in the window, and a tick or two
 * of difference because the kernel rounds each thread's and the process's user/system split apart.
 */
export const EXITED = '(exited, rounding)';

let ticksPerSecond: number | undefined;
export function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticksPerSecond;
}

/** utime + stime of a /proc stat file, in ticks (fields 14 and 15; the name may hold spaces). */
function statTicks(file: string): number {
  const text = readFileSync(file, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Busy ticks of all CPUs: user nice system (idle iowait) irq softirq steal; guest is inside user. */
function machineBusyTicks(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
  return user + nice + system + irq + softirq + steal;
}

/** Threads of a process below the server (GATEWAY_WORKERS' request processes) are named so. */
export const CHILD_PROCESS = ' (child processes)';

/** The server's processes: it, then its children, theirs, … (/proc/…/children, Linux 3.5+). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const tid of readdirSync(`/proc/${tree[i]}/task`)) {
      try {
        const children = readFileSync(`/proc/${tree[i]}/task/${tid}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(' ').map(Number));
      } catch {
        // The thread exited between the listing and the read.
      }
    }
  return tree;
}

/**
 * The server and any processes it started (GATEWAY_WORKERS): every thread's ticks, the threads of
 * a child process named with CHILD_PROCESS after them (its main thread as `main`), and the total
 * over all of them as the process's.
 */
export function takeCpuSnapshot(pid: number): CpuSnapshot {
  const threads = new Map<number, { name: string; ticks: number }>();
  let processTicks = 0;
  for (const member of processTree(pid)) {
    const suffix = member === pid ? '' : CHILD_PROCESS;
    try {
      processTicks += statTicks(`/proc/${member}/stat`);
    } catch {
      continue; // a child that exited in between: its ticks are gone with it
    }
    for (const tid of readdirSync(`/proc/${member}/task`)) {
      try {
        const name =
          Number(tid) === member
            ? 'main'
            : readFileSync(`/proc/${member}/task/${tid}/comm`, 'utf8').trim();
        threads.set(Number(tid), {
          name: `${name}${suffix}`,
          ticks: statTicks(`/proc/${member}/task/${tid}/stat`),
        });
      } catch {
        // The thread exited between the listing and the read: the process total still has it.
      }
    }
  }
  return {
    pid,
    at: process.hrtime.bigint(),
    processTicks,
    threads,
    machineBusyTicks: machineBusyTicks(),
    driver: process.cpuUsage(),
  };
}

export function cpuPerRequest(
  before: CpuSnapshot,
  after: CpuSnapshot,
  requests: number,
): CpuPerRequest {
  const hz = clockTicksPerSecond();
  const seconds = Number(after.at - before.at) / 1e9;
  const perRequest = (ticks: number) => (ticks * 1e6) / hz / Math.max(1, requests);
  const cores = (ticks: number) => ticks / hz / seconds;

  const groups = new Map<string, { threads: number; ticks: number }>();
  let counted = 0;
  for (const [tid, thread] of after.threads) {
    const ticks = thread.ticks - (before.threads.get(tid)?.ticks ?? 0);
    const name = thread.name;
    const group = groups.get(name) ?? { threads: 0, ticks: 0 };
    groups.set(name, { threads: group.threads + 1, ticks: group.ticks + ticks });
    counted += ticks;
  }
  const processTicks = after.processTicks - before.processTicks;
  const threads = [...groups]
    .map(([name, group]) => ({
      name,
      threads: group.threads,
      microsPerRequest: perRequest(group.ticks),
    }))
    .sort(
      (a, b) =>
        Number(b.name === 'main') - Number(a.name === 'main') ||
        b.microsPerRequest - a.microsPerRequest,
    );
  const exited = processTicks - counted;
  if (exited > 0) threads.push({ name: EXITED, threads: 0, microsPerRequest: perRequest(exited) });

  const driverMicros =
    after.driver.user + after.driver.system - before.driver.user - before.driver.system;
  const machineBusy = cores(after.machineBusyTicks - before.machineBusyTicks);
  const loadGeneratorCores = driverMicros / 1e6 / seconds;
  return {
    pid: after.pid,
    requests,
    windowSeconds: seconds,
    clockTicksPerSecond: hz,
    processMicros: perRequest(processTicks),
    mainThreadMicros: perRequest(groups.get('main')?.ticks ?? 0),
    threads,
    serverCores: cores(processTicks),
    loadGeneratorCores,
    otherCores: Math.max(0, machineBusy - cores(processTicks) - loadGeneratorCores),
    windowMicros: { from: Number(before.at / 1000n), to: Number(after.at / 1000n) },
  };
}
