import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join, resolve } from 'node:path';

const CLI = join(resolve(__dirname, '..', '..', '..'), 'dist/apps/ledger/src/ledger.cli.js');

/**
 * One ledger CLI process: wall time, CPU time (user + system, all threads) and peak RSS
 * (/usr/bin/time), exit status and output. On the shared machine the wall time moves with the
 * load; the CPU time far less.
 */
export interface CliRun {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMb: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The V8 heap cap of every CLI process, MB (BENCH_LEDGER_HEAP_MB, 0 for V8's default). V8 lets a
 * heap that allocates fast grow far past what it holds (~550 MB for the catch-up), so RSS says
 * little; under a cap, a command whose memory grew with the events would fail at 1M.
 */
export const HEAP_MB = Number(process.env.BENCH_LEDGER_HEAP_MB ?? 128);
const NODE_ARGS = HEAP_MB > 0 ? [`--max-old-space-size=${HEAP_MB}`] : [];

/** Runs `ledger ARGS` under /usr/bin/time; stdout to /dev/null unless kept. */
export function runCli(args: readonly string[], keepStdout = true): Promise<CliRun> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'PEAK_RSS_KB %M CPU_S %U %S', process.execPath, ...NODE_ARGS, CLI, ...args],
      {
        stdio: ['ignore', keepStdout ? 'pipe' : openSync('/dev/null', 'w'), 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c));
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    child.on('error', fail);
    child.on('close', (status) => {
      const [, kb, user, system] = /PEAK_RSS_KB (\d+) CPU_S ([\d.]+) ([\d.]+)/.exec(stderr) ?? [];
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = Number(user) + Number(system);
      done({ seconds, cpuSeconds, peakRssMb: Number(kb) / 1024, status, stdout, stderr });
    });
  });
}
