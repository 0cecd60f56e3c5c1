import { foldOrder, type OrderEvent } from '@gateway/domain';
import { SqliteEventLog } from '@gateway/event-store';
import { PostingsStore } from '@gateway/ledger';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { HEAP_MB, runCli, type CliRun } from './ledger/cli-run';
import { groundTruth, type GroundTruth } from './ledger/ground-truth';
import { checkBalances, checkDaily, checkReconcile } from './ledger/checks';
import { writeSettlementFixture } from './ledger/settlement-fixture';
import { longestStream } from './longest-stream';
import { startServer } from './processes';

/**
 * `npm run bench:ledger -- DIR [DIR…]`: for each data directory written by `npm run seed`, the
 * ledger CLI's commands at that size, each a process of its own (wall time, peak RSS): postings
 * built from nothing, balances as of several times, `daily` over the whole range, `reconcile` of a
 * settlement file of up to 100,000 lines with a known handful of discrepancies, verify, export and
 * the longest order's fold; then every size side by side. Each answer is checked against the domain's own fold of
 * the log (bench/ledger/ground-truth.ts): a wrong answer fails the bench (exit 1).
 * BENCH_LEDGER_PROJECTOR=1 adds the gateway's projector catching up from zero, then `replay`.
 */
const ROOT = resolve(__dirname, '..', '..');
const GATEWAY = join(ROOT, 'dist/apps/gateway/src/main.js');
const SETTLEMENT_LINES = 100_000;
/** Where in the log (fractions of its positions) balances are asked as of. */
const AS_OF_POINTS = [0.1, 0.25, 0.5, 0.75, 0.9, 1];

interface Row {
  readonly label: string;
  readonly cells: Map<string, string>;
}
const table: Row[] = [];
const problems: string[] = [];

function report(dir: string, label: string, value: string): void {
  let row = table.find((r) => r.label === label);
  if (!row) table.push((row = { label, cells: new Map() }));
  row.cells.set(dir, value);
}

function reportRun(dir: string, label: string, run: CliRun, rate?: string): void {
  const rss = `${run.peakRssMb.toFixed(0)} MB`;
  const times = `${run.seconds.toFixed(1)} s (CPU ${run.cpuSeconds.toFixed(1)} s)`;
  report(dir, label, `${times}${rate ? `, ${rate}` : ''}, RSS ${rss}`);
  if (run.status !== 0 && !label.startsWith('reconcile'))
    problems.push(`${dir}: ${label} exited ${run.status}: ${run.stderr.slice(0, 300)}`);
}

const perSecond = (n: number, seconds: number) => `${Math.round(n / seconds).toLocaleString()}/s`;

async function projectorCatchUp(dataDir: string, head: bigint): Promise<number> {
  for (const suffix of ['', '-wal', '-shm'])
    rmSync(join(dataDir, `read-model.db${suffix}`), { force: true });
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
  const { streamId, events: n } = longestStream(dataDir);
  const log = SqliteEventLog.open(join(dataDir, 'events.db'));
  const folds: number[] = [];
  for (let i = 0; i < 7; i++) {
    const events = await log.readStream(streamId);
    const t0 = performance.now();
    foldOrder(events as unknown as OrderEvent[]);
    folds.push(performance.now() - t0);
  }
  await log.close();
  return { events: n, foldMs: folds.sort((a, b) => a - b)[3] };
}

/** The commit time of the event at each fraction of the log's positions. */
function timesAt(dataDir: string, head: bigint): string[] {
  const raw = new Database(join(dataDir, 'events.db'), { readonly: true });
  const at = raw
    .prepare('SELECT recorded_at FROM events WHERE position >= ? ORDER BY position LIMIT 1')
    .pluck();
  const times = AS_OF_POINTS.map((f) => at.get(BigInt(Math.ceil(Number(head) * f))) as string);
  raw.close();
  return times;
}

/** Balances as of each time, in-process (the query, not a start-up): 5 runs a time. */
function balancesAsOf(dataDir: string, times: readonly string[], truth: GroundTruth) {
  const store = PostingsStore.open(join(dataDir, 'ledger.db'));
  const runs: number[] = [];
  for (const asOf of times)
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const balances = store.balances({ asOf });
      runs.push(performance.now() - t0);
      if (i === 0) problems.push(...checkBalances(balances, asOf, truth, asOf === times.at(-1)));
    }
  store.close();
  runs.sort((a, b) => a - b);
  return { medianMs: runs[Math.floor(runs.length / 2)], worstMs: runs[runs.length - 1] };
}

async function benchDir(dir: string): Promise<void> {
  const dataDir = resolve(dir);
  const log = SqliteEventLog.open(join(dataDir, 'events.db'));
  const head = (await log.headPosition()) ?? 0n;
  await log.close();
  const events = Number(head);
  report(dir, 'events', events.toLocaleString());
  const t0 = performance.now();
  const truth = groundTruth(dataDir);
  const truthSeconds = (performance.now() - t0) / 1000;
  report(
    dir,
    'orders (bench: folded with foldOrder)',
    `${truth.orders.toLocaleString()} in ${truthSeconds.toFixed(1)} s`,
  );

  for (const suffix of ['', '-wal', '-shm'])
    rmSync(join(dataDir, `ledger.db${suffix}`), { force: true });
  const built = await runCli(['balances', '--data-dir', dataDir], false);
  reportRun(
    dir,
    'postings built from nothing (balances)',
    built,
    `${perSecond(events, built.seconds)} events`,
  );

  const times = timesAt(dataDir, head);
  const asOf = balancesAsOf(dataDir, times, truth);
  report(
    dir,
    `balance as of ${times.length} times (in-process, 5 runs each)`,
    `median ${asOf.medianMs.toFixed(1)} ms, worst ${asOf.worstMs.toFixed(1)} ms`,
  );
  const asOfCli = await runCli(['balances', '--data-dir', dataDir, '--as-of', times[2]], false);
  reportRun(dir, 'balances --as-of (process, start-up included)', asOfCli);

  // The whole range: the first commit's day to the last's (the head's time, the last as-of).
  const raw = new Database(join(dataDir, 'events.db'), { readonly: true });
  const from = raw.prepare('SELECT min(recorded_at) FROM events').pluck().get() as string;
  raw.close();
  const range = ['--from', from.slice(0, 10), '--to', times.at(-1)!.slice(0, 10)];
  const daily = await runCli(['daily', '--data-dir', dataDir, ...range, '--format', 'csv']);
  reportRun(
    dir,
    'daily over the whole range (csv)',
    daily,
    perSecond(events, daily.seconds) + ' events',
  );
  problems.push(...checkDaily(daily.stdout, truth));

  const file = join(dataDir, 'bench-settlement.csv');
  const fixture = await writeSettlementFixture(file, truth.batches, SETTLEMENT_LINES);
  const reconciled = await runCli([
    'reconcile',
    '--data-dir',
    dataDir,
    '--settlement',
    file,
    '--format',
    'jsonl',
  ]);
  reportRun(
    dir,
    'reconcile',
    reconciled,
    `${fixture.lines.toLocaleString()} lines of ${fixture.batches} batches`,
  );
  problems.push(...checkReconcile(reconciled, fixture));

  const verify = await runCli(['verify', '--data-dir', dataDir]);
  reportRun(
    dir,
    'verify (chain, then postings)',
    verify,
    perSecond(events, verify.seconds) + ' events',
  );
  const exported = await runCli(['export', '--data-dir', dataDir, '--format', 'csv'], false);
  const rows = Number(/exported (\d+) rows/.exec(exported.stderr)?.[1]);
  reportRun(dir, 'export --format csv', exported, `${rows.toLocaleString()} rows`);
  if (process.env.BENCH_LEDGER_PROJECTOR === '1') {
    // replay compares with the live read model: the gateway's projector makes it first.
    const catchUp = await projectorCatchUp(dataDir, head);
    const rate = perSecond(events, catchUp);
    report(dir, 'projector catch-up in the gateway', `${catchUp.toFixed(1)} s, ${rate} events`);
    const replay = await runCli(['replay', '--data-dir', dataDir]);
    const replayRate = /\((\d+) events\/s/.exec(replay.stdout)?.[1];
    reportRun(
      dir,
      'replay (read model rebuilt, compared)',
      replay,
      `rebuild ${replayRate} events/s`,
    );
  }
  const fold = await longestFold(dataDir);
  report(
    dir,
    'longest stream: fold (median of 7)',
    `${fold.events} events, ${fold.foldMs.toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0)
    throw new Error('usage: bench:ledger -- DIR [DIR…] (seeded by npm run seed)');
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const loadBefore = load();
  for (const dir of dirs) {
    process.stderr.write(`bench:ledger: ${dir}\n`);
    await benchDir(dir);
  }
  const heap = HEAP_MB > 0 ? `--max-old-space-size=${HEAP_MB}` : "V8's default heap";
  console.log(`CLI processes with ${heap}; load average ${loadBefore} before, ${load()} after`);
  const width = Math.max(...table.map((r) => r.label.length));
  console.log(['', ...dirs].join(' | ').padStart(width));
  for (const row of table)
    console.log([row.label.padEnd(width), ...dirs.map((d) => row.cells.get(d) ?? '-')].join(' | '));
  for (const problem of problems) console.log(`WRONG: ${problem}`);
  console.log(
    problems.length === 0 ? 'every answer checked: right' : `${problems.length} wrong answers`,
  );
  process.exitCode = problems.length === 0 ? 0 : 1;
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
