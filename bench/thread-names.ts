import { existsSync, readdirSync, readFileSync, stat, writeFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';

/**
 * Preloaded (`--require`) into every server the benchmarks start, so that the CPU breakdown by
 * thread (cpu-accounting.ts) can say which thread is which. Node 20 leaves every thread of a
 * process named "node"; later versions name some ("V8 DefaultWorke", "libuv-worker"), and those
 * names are kept. A thread may rename any thread of its own process through /proc, at no cost
 * to the requests measured: this runs once, at start-up.
 *
 * - main thread: stays "node" (the accounting knows it as the thread whose id is the pid);
 * - threads that exist before any JavaScript runs: "v8-platform" (V8's worker pool: parallel and
 *   concurrent GC, concurrent compilation; plus two helpers that sleep, and the profiler's sampler
 *   when --cpu-prof is on);
 * - the libuv threadpool, started here by one fs.stat: "libuv-pool" (async fs, crypto.scrypt, zlib);
 * - each worker_threads Worker names itself "worker-<threadId>" (in the gateway the first one is
 *   the event store's SQLite writer).
 */
const TASKS = '/proc/self/task';
const UNNAMED = 'node';

const comm = (tid: string): string => readFileSync(`${TASKS}/${tid}/comm`, 'utf8').trim();
const rename = (tid: string, name: string): void => {
  if (comm(tid) === UNNAMED) writeFileSync(`${TASKS}/${tid}/comm`, name);
};

function nameThreads(): void {
  if (!isMainThread) {
    writeFileSync('/proc/thread-self/comm', `worker-${threadId}`);
    return;
  }
  const main = String(process.pid);
  const platform = readdirSync(TASKS).filter((tid) => tid !== main);
  for (const tid of platform) rename(tid, 'v8-platform');
  // The first piece of threadpool work starts the whole pool, synchronously: the threads that are
  // new right after this call are the pool (no other JavaScript can start a thread in between).
  stat(__filename, () => undefined);
  const known = new Set([main, ...platform]);
  for (const tid of readdirSync(TASKS)) if (!known.has(tid)) rename(tid, 'libuv-pool');
}

if (existsSync('/proc/thread-self/comm')) nameThreads();
