import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { EXITED } from './cpu-accounting';
import { CONNECTIONS, DURATION, WARM_UP_SECONDS, type LoadFigures } from './measured-load';

/** Prints what measureLoad measured: a table per target, and with BENCH_JSON=1 one JSON line. */

// Runs from dist/bench: the repository root is two levels up.
const ROOT = resolve(__dirname, '../..');

export function machineLine(): string {
  return `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`;
}

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function printLoadTables(results: readonly LoadFigures[]): void {
  console.log(`\n${machineLine()}`);
  console.log(
    `load: ${CONNECTIONS} connections, ${DURATION} s per target after a ${WARM_UP_SECONDS} s warm-up; ` +
      `CPU from /proc in ${1000 / (results[0]?.cpu.clockTicksPerSecond ?? 100)} ms ticks over the measured window\n`,
  );
  const names = results.map((r) => r.name);
  const width = Math.max(14, ...names.map((name) => name.length + 2));
  const row = (label: string, value: (r: LoadFigures) => string) =>
    console.log(`${label.padEnd(30)}${results.map((r) => value(r).padStart(width)).join('')}`);
  row('', (r) => r.name);
  row('requests/s', (r) => number(r.requestsPerSecond));
  row('p50 / p99 ms', (r) => `${r.p50} / ${r.p99}`);
  row('completed (non-2xx, errors)', (r) => `${r.completed} (${r.non2xx}, ${r.errors})`);
  row('CPU µs/request: process', (r) => number(r.cpu.processMicros, 1));
  // Main first, then the busiest of the last target's threads, then the others; exited last.
  const threadNames = [
    ...new Set(results.toReversed().flatMap((r) => r.cpu.threads.map((t) => t.name))),
  ].sort((a, b) => Number(a === EXITED) - Number(b === EXITED));
  for (const name of threadNames)
    row(`  ${name}`, (r) => {
      const group = r.cpu.threads.find((t) => t.name === name);
      if (!group) return '-';
      return `${number(group.microsPerRequest, 1)}${group.threads > 1 ? ` ×${group.threads}` : ''}`;
    });
  if (results.some((r) => r.settled))
    row('CPU µs/request, queue drained', (r) =>
      r.settled ? number(r.settled.processMicros, 1) : '-',
    );
  row('cores: server', (r) => number(r.cpu.serverCores, 2));
  row('cores: load generator', (r) => number(r.cpu.loadGeneratorCores, 2));
  row('cores: rest of the machine', (r) => number(r.cpu.otherCores, 2));
  const traced = results.filter((r) => r.gc?.length);
  if (traced.length) {
    console.log(
      '\n--trace-gc-nvp, per request: allocated KiB / GC pause µs (collections in the window)',
    );
    for (const r of traced)
      for (const isolate of r.gc!)
        console.log(
          `  ${r.name} ${isolate.isolate}: ${number(isolate.allocatedKiB, 1)} KiB / ${number(isolate.pauseMicros, 1)} µs (${isolate.collections})`,
        );
  }
  const [baseline, ...others] = results;
  for (const other of others) {
    console.log(
      `\n${other.name} / ${baseline.name}: throughput ${number((other.requestsPerSecond / baseline.requestsPerSecond) * 100, 1)} %, ` +
        `CPU per request ${number(other.cpu.processMicros / baseline.cpu.processMicros, 1)}× (main thread ${number(other.cpu.mainThreadMicros / baseline.cpu.mainThreadMicros, 1)}×)`,
    );
  }
  // With --cpu-prof: each target's profiles are named CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile.
  const profileDir = /--cpu-prof-dir=(\S+)/.exec(process.env.BENCH_NODE_ARGS ?? '')?.[1];
  if (process.env.BENCH_NODE_ARGS?.includes('--cpu-prof')) {
    console.log('\nthe measured window of each profile:');
    for (const r of results)
      console.log(
        `  ${r.name}: node dist/bench/profile-summary.js --window ${r.cpu.windowMicros.from}:${r.cpu.windowMicros.to} ` +
          `--requests ${r.completed} --cpu ${profiledThreadsCpu(r)} ${profileDir ?? '.'}/CPU.*.${r.cpu.pid}.*.cpuprofile`,
      );
  }
}

/** The CPU per request of the threads that --cpu-prof profiles (those running JavaScript). */
function profiledThreadsCpu(r: LoadFigures): string {
  return r.cpu.threads
    .filter((t) => /^(main|worker-\d+)$/.test(t.name))
    .map((t) => `${t.name}=${t.microsPerRequest.toFixed(1)}`)
    .join(',');
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown';
  }
}

/** BENCH_JSON=1: one line of JSON on stdout, to keep and compare runs (`… | grep '^{' >> runs.jsonl`). */
export function printJsonLine(
  bench: string,
  results: readonly LoadFigures[],
  extra: object = {},
): void {
  if (process.env.BENCH_JSON !== '1') return;
  const [baseline, ...others] = results;
  console.log(
    JSON.stringify({
      bench,
      at: new Date().toISOString(),
      commit: commit(),
      node: process.version,
      cpus: cpus().length,
      loadAverage: loadavg(),
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      targets: results,
      ratios: others.map((other) => ({
        target: other.name,
        baseline: baseline.name,
        throughput: other.requestsPerSecond / baseline.requestsPerSecond,
        cpuProcess: other.cpu.processMicros / baseline.cpu.processMicros,
        cpuMainThread: other.cpu.mainThreadMicros / baseline.cpu.mainThreadMicros,
      })),
      ...extra,
    }),
  );
}
