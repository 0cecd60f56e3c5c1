import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword } from '@gateway/merchants';
import { cpuPerRequest, takeCpuSnapshot } from '../cpu-accounting';
import { startServer, type Server } from '../processes';
import { LatencyWindow, memoryVerdict, type MemorySample } from './soak-stats';
import { nextFlow, SoakClient, type Step } from './traffic';

/**
 * `npm run soak -- --minutes N`: starts a gateway on loopback in a fresh data directory, measures
 * its capacity for the mixed traffic of traffic.ts, then runs that traffic at 80 % of it for N
 * minutes (1-60, default 2), printing requests, errors, p50/p99 and the gateway's memory every
 * interval, and a verdict: zero errors, the load sustained and flat memory (soak-stats.ts). The report also goes to a
 * file (--report, default soak-report.txt).
 */
const ROOT = resolve(__dirname, '../../..');
const MERCHANT = 'TESTSOAK';
const VICTIM = 'TESTGUESSED';
const PASSWORD = 'soak-password';
const CAPACITY_SECONDS = 15;
const WARM_UP_SECONDS = 3;
const CAPACITY_CONNECTIONS = 64;
const LOAD_SHARE = 0.8;
/**
 * Beyond this many requests in flight the gateway is not keeping up: requests due then are not
 * sent (and not sent later either, which would be a burst), and the run fails.
 */
const MAX_OUTSTANDING = 2000;

function options() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '2' },
      interval: { type: 'string', default: '10' },
      report: { type: 'string', default: 'soak-report.txt' },
    },
  });
  const minutes = Number(values.minutes);
  const interval = Number(values.interval);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 60)
    throw new Error(`--minutes '${values.minutes}' must be a whole number from 1 to 60`);
  if (!Number.isInteger(interval) || interval < 1 || interval > 600)
    throw new Error(
      `--interval '${values.interval}' must be a whole number of seconds from 1 to 600`,
    );
  return { minutes, interval, report: resolve(values.report) };
}

async function startGateway(): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-soak-'));
  const merchantsFile = join(dataDir, 'merchants.json');
  const passwordHash = await hashPassword(PASSWORD);
  const merchant = (id: string) => ({
    id,
    passwordHash,
    notificationSecret: `soak-notification-secret-${id}`,
  });
  writeFileSync(
    merchantsFile,
    JSON.stringify({ merchants: [merchant(MERCHANT), merchant(VICTIM)] }),
  );
  return startServer(join(ROOT, 'dist/apps/gateway/src/main.js'), {
    HOST: '127.0.0.1',
    PORT: '0',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
  });
}

let orders = 0;
const newOrder = () => `soak-${process.pid}-${++orders}`;

/** Closed loop: `connections` merchants each running flows back to back; returns requests/s. */
async function measureCapacity(client: SoakClient, seconds: number): Promise<number> {
  let completed = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      for (const step of nextFlow(newOrder())) {
        const outcome = await client.send(step);
        completed++;
        if (!outcome.ok) errors++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CAPACITY_CONNECTIONS }, worker));
  if (errors) throw new Error(`${errors} errors while measuring capacity`);
  return completed / ((performance.now() - started) / 1000);
}

async function gatewayMemory(url: string): Promise<MemorySample> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
  return {
    rssMiB: read('process_resident_memory_bytes'),
    heapMiB: read('nodejs_heap_size_used_bytes'),
  };
}

/**
 * Open loop at a fixed request rate: every few milliseconds it sends what the schedule says is
 * due, the next step of a flow whose previous step has been answered first, else a new flow.
 */
async function runLoad(
  client: SoakClient,
  gateway: Server,
  rate: number,
  seconds: number,
  interval: number,
  report: (line: string) => void,
): Promise<{
  requests: number;
  memory: MemorySample[];
  errors: number;
  notSent: number;
  problems: Map<string, number>;
}> {
  const window = new LatencyWindow();
  const ready: Step[][] = [];
  let requests = 0;
  const readings: MemorySample[] = [];
  /** Each interval's lowest readings, warm-up left out. */
  const lows: MemorySample[] = [];
  const problems = new Map<string, number>();
  let outstanding = 0;
  let scheduled = 0;
  let notSent = 0;
  let errors = 0;
  const send = (steps: Step[]) => {
    const [step, ...rest] = steps;
    outstanding++;
    void client.send(step).then((outcome) => {
      outstanding--;
      window.record(outcome.ms);
      if (!outcome.ok) {
        window.errors++;
        errors++;
        const key = outcome.problem!.replace(/soak-\d+-\d+/, '{order}');
        problems.set(key, (problems.get(key) ?? 0) + 1);
        return; // the rest of the flow depends on this step: it would only fail in turn
      }
      if (rest.length) ready.push(rest);
    });
  };
  const started = performance.now();
  const pace = setInterval(() => {
    const due = Math.floor((rate * (performance.now() - started)) / 1000) - scheduled;
    scheduled += due;
    for (let i = 0; i < due; i++) {
      if (outstanding >= MAX_OUTSTANDING) notSent++;
      else send(ready.shift() ?? nextFlow(newOrder()));
    }
  }, 5);
  // Memory every second; each interval keeps its lowest readings (soak-stats.ts).
  const sampler = setInterval(() => {
    void gatewayMemory(gateway.url).then((sample) => readings.push(sample));
  }, 1000);
  report(
    ' seconds  requests   req/s  errors  p50 ms  p99 ms  CPU µs/req  lowest RSS MiB  lowest heap MiB  load',
  );
  let cpuBefore = takeCpuSnapshot(gateway.child.pid!);
  for (let at = interval; at <= seconds; at += interval) {
    await new Promise((done) => setTimeout(done, started + at * 1000 - performance.now()));
    const figures = window.close();
    const cpuAfter = takeCpuSnapshot(gateway.child.pid!);
    const cpu = cpuPerRequest(cpuBefore, cpuAfter, figures.requests).processMicros;
    cpuBefore = cpuAfter;
    requests += figures.requests;
    const recent = readings.splice(0);
    const rss = Math.min(...recent.map((sample) => sample.rssMiB));
    const heap = Math.min(...recent.map((sample) => sample.heapMiB));
    if (at > interval) lows.push({ rssMiB: rss, heapMiB: heap }); // the first is warm-up
    report(
      `${String(at).padStart(8)} ${String(figures.requests).padStart(9)} ${(figures.requests / interval).toFixed(0).padStart(7)} ${String(figures.errors).padStart(7)} ${figures.p50.toFixed(1).padStart(7)} ${figures.p99.toFixed(1).padStart(7)} ${cpu.toFixed(0).padStart(11)} ${rss.toFixed(1).padStart(15)} ${heap.toFixed(1).padStart(16)} ${loadavg()[0].toFixed(1).padStart(5)}`,
    );
  }
  clearInterval(sampler);
  clearInterval(pace);
  while (outstanding > 0) await new Promise((done) => setTimeout(done, 10));
  return { requests, memory: lows, errors, notSent, problems };
}

async function main(): Promise<void> {
  const { minutes, interval, report: reportFile } = options();
  writeFileSync(reportFile, '');
  const report = (line: string) => {
    console.log(line);
    appendFileSync(reportFile, `${line}\n`);
  };
  const gateway = await startGateway();
  const client = new SoakClient(gateway.url, {
    merchant: MERCHANT,
    password: PASSWORD,
    victim: VICTIM,
  });
  try {
    report(
      `soak of ${gateway.url}, ${new Date().toISOString()}, ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}`,
    );
    await measureCapacity(client, WARM_UP_SECONDS);
    const capacity = await measureCapacity(client, CAPACITY_SECONDS);
    const rate = Math.round(capacity * LOAD_SHARE);
    report(
      `capacity (mixed traffic, ${CAPACITY_CONNECTIONS} connections, ${CAPACITY_SECONDS} s): ${capacity.toFixed(0)} requests/s`,
    );
    report(
      `load: ${rate} requests/s (${LOAD_SHARE * 100} %) for ${minutes} min, reported every ${interval} s\n`,
    );
    const { requests, memory, errors, notSent, problems } = await runLoad(
      client,
      gateway,
      rate,
      minutes * 60,
      interval,
      report,
    );
    const verdict = memoryVerdict(memory);
    report(
      `\nrequests: ${requests}, errors: ${errors}, not sent (${MAX_OUTSTANDING} in flight): ${notSent}`,
    );
    for (const [problem, count] of problems) report(`  ${count} × ${problem}`);
    for (const line of verdict.lines) report(line);
    const pass = errors === 0 && notSent === 0 && verdict.flat;
    report(
      `verdict: ${pass ? 'PASS' : 'FAIL'} (zero errors: ${errors === 0 ? 'yes' : 'no'}; load sustained: ${notSent === 0 ? 'yes' : 'no'}; memory flat: ${verdict.flat ? 'yes' : 'no'})`,
    );
    report(`report written to ${reportFile}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    client.close();
    await gateway.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
