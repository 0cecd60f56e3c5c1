import { foldOrder, type OrderEvent } from '@gateway/domain';
import { SqliteEventLog } from '@gateway/event-store';
import { PostingsStore } from '@gateway/ledger';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { openSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer } from './processes';

/**
 * `npm run bench:ledger -- DIR [DIR…]`: for each data directory written by `npm run seed`, measures
 * the live projector catching up from zero inside the gateway, then the ledger CLI's replay, export
 * and verify (each a process of its own, its peak RSS from /usr/bin/time), and the fold of the
 * longest order stream.
 */
const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist/apps/ledger/src/ledger.cli.js');
const GATEWAY = join(ROOT, 'dist/apps/gateway/src/main.js');

interface Timed {
  readonly seconds: number;
  readonly peakRssMb: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI under /usr/bin/time; stdout to /dev/null unless kept. */
function timed(args: string[], keepStdout = true): Promise<Timed> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'PEAK_RSS_KB %M', process.execPath, CLI, ...args], {
      stdio: ['ignore', keepStdout ? 'pipe' : openSync('/dev/null', 'w'), 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c));
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    child.on('error', fail);
    child.on('close', () => {
      const kb = Number(/PEAK_RSS_KB (\d+)/.exec(stderr)?.[1] ?? NaN);
      done({ seconds: (performance.now() - started) / 1000, peakRssMb: kb / 1024, stdout, stderr });
    });
  });
}

async function projectorCatchUp(dataDir: string, head: bigint): Promise<number> {
  rmSync(join(dataDir, 'read-model.db'), { force: true });
  rmSync(join(dataDir, 'read-model.db-wal'), { force: true });
  rmSync(join(dataDir, 'read-model.db-shm'), { force: true });
  const started = performance.now();
  const server = await startServer(GATEWAY, {
    PORT: '0',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: join(ROOT, 'config/merchants.json'),
    GATEWAY_LOG_LEVEL: 'warn',
  });
  for (;;) {
    const ready = (await (await fetch(`${server.url}/health/ready`)).json()) as {
      projections: { orderSummary: { checkpoint?: string } };
    };
    if (ready.projections.orderSummary.checkpoint === head.toString()) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  await server.stop();
  return seconds;
}

async function longestFold(dataDir: string) {
  const raw = new Database(join(dataDir, 'events.db'), { readonly: true });
  const { stream_id: streamId, n } = raw
    .prepare(
      'SELECT stream_id, count(*) AS n FROM events GROUP BY stream_id ORDER BY n DESC LIMIT 1',
    )
    .get() as { stream_id: string; n: number };
  raw.close();
  const log = SqliteEventLog.open(join(dataDir, 'events.db'));
  const runs: { read: number; fold: number }[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const events = await log.readStream(streamId);
    const t1 = performance.now();
    foldOrder(events as unknown as OrderEvent[]);
    runs.push({ read: t1 - t0, fold: performance.now() - t1 });
  }
  await log.close();
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    events: n,
    readMs: median(runs.map((r) => r.read)),
    foldMs: median(runs.map((r) => r.fold)),
  };
}

/**
 * The postings store built from nothing by `ledger balances` (a process: rate and peak RSS), then
 * a balance as of the middle event's time, in-process (median of 7: the query, not a start-up).
 */
async function postings(dataDir: string, head: bigint) {
  for (const suffix of ['', '-wal', '-shm'])
    rmSync(join(dataDir, `ledger.db${suffix}`), { force: true });
  const built = await timed(['balances', '--data-dir', dataDir], false);
  const raw = new Database(join(dataDir, 'events.db'), { readonly: true });
  const middle = raw
    .prepare('SELECT recorded_at FROM events WHERE position >= ? ORDER BY position LIMIT 1')
    .pluck()
    .get(head / 2n) as string;
  raw.close();
  const store = PostingsStore.open(join(dataDir, 'ledger.db'));
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    store.balances({ asOf: middle });
    runs.push(performance.now() - t0);
  }
  store.close();
  return { built, asOfMs: runs.sort((a, b) => a - b)[3] };
}

async function main(): Promise<void> {
  for (const dataDir of process.argv.slice(2).map((d) => resolve(d))) {
    const log = SqliteEventLog.open(join(dataDir, 'events.db'));
    const head = (await log.headPosition()) ?? 0n;
    await log.close();
    const events = Number(head);
    const catchUp = await projectorCatchUp(dataDir, head);
    const replay = await timed(['replay', '--data-dir', dataDir]);
    const replayRate = /\((\d+) events\/s/.exec(replay.stdout)?.[1];
    const replayCpu = /CPU ([\d.]+) s/.exec(replay.stdout)?.[1];
    const exported = await timed(['export', '--data-dir', dataDir, '--format', 'csv'], false);
    const rows = Number(/exported (\d+) rows/.exec(exported.stderr)?.[1]);
    const posted = await postings(dataDir, head);
    const verify = await timed(['verify', '--data-dir', dataDir]);
    const fold = await longestFold(dataDir);
    console.log(`\n${dataDir}: ${events} events`);
    console.log(
      `projector catch-up in the gateway (start-up included): ${catchUp.toFixed(1)} s, ${Math.round(events / catchUp)} events/s`,
    );
    console.log(
      `replay: ${replayRate} events/s (rebuild only, CPU ${replayCpu} s), ${replay.seconds.toFixed(1)} s with compare, peak RSS ${replay.peakRssMb.toFixed(0)} MB; ${replay.stdout.trim().split('\n').at(-1)}`,
    );
    console.log(
      `export csv: ${rows} rows in ${exported.seconds.toFixed(1)} s = ${Math.round(rows / exported.seconds)} rows/s, peak RSS ${exported.peakRssMb.toFixed(0)} MB`,
    );
    console.log(
      `postings built from nothing (balances): ${posted.built.seconds.toFixed(1)} s = ${Math.round(events / posted.built.seconds)} events/s, peak RSS ${posted.built.peakRssMb.toFixed(0)} MB; balances as of the middle event: ${posted.asOfMs.toFixed(1)} ms (median of 7)`,
    );
    console.log(
      `verify (chain, then postings): ${verify.seconds.toFixed(1)} s = ${Math.round(events / verify.seconds)} events/s, peak RSS ${verify.peakRssMb.toFixed(0)} MB; ${verify.stdout.trim().split('\n').at(-1)?.slice(0, 60)}`,
    );
    console.log(
      `longest stream: ${fold.events} events, read ${fold.readMs.toFixed(1)} ms, fold ${fold.foldMs.toFixed(1)} ms (median of 7)`,
    );
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
