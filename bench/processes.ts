import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from '@gateway/merchants';
import { GcTrace } from './gc-trace';

export interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  /** Set when BENCH_NODE_ARGS has --trace-gc-nvp: the server's collections, read from its stdout. */
  readonly gc?: GcTrace;
  stop(): Promise<void>;
}

/**
 * Starts a node script that prints "listening on <url>" once it serves. BENCH_NODE_ARGS adds node
 * options to it (e.g. "--cpu-prof --cpu-prof-dir=prof" to profile it under load, "--trace-gc-nvp"
 * to count what it allocates: docs/benchmarks.md). thread-names.ts is preloaded to name its threads.
 */
export function startServer(script: string, env: Record<string, string>): Promise<Server> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const gc = nodeArgs.includes('--trace-gc-nvp') ? new GcTrace() : undefined;
  const preload = ['--require', join(__dirname, 'thread-names.js')];
  const child = spawn(process.execPath, [...preload, ...nodeArgs, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      gc?.feed(chunk);
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        // From here the server's log is drained, not kept: the driver shares this process with
        // autocannon, and growing and re-scanning the output would slow the load it generates.
        // Only a GC trace, asked for, is read (gc-trace.ts), line by line.
        child.stdout!.off('data', onData);
        if (gc) child.stdout!.on('data', (more: Buffer) => gc.feed(more));
        else child.stdout!.resume();
        resolve({
          url: match[1],
          child,
          gc,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

const BENCH_PASSWORD = 'bench-password';

/** Writes a merchants file with the benchmark's one test merchant; returns its path and credentials. */
export async function writeBenchMerchant(
  dataDir: string,
): Promise<{ merchantsFile: string; authorization: string }> {
  const merchantsFile = join(dataDir, 'merchants.json');
  writeFileSync(
    merchantsFile,
    JSON.stringify({
      merchants: [
        {
          id: 'TESTBENCH',
          passwordHash: await hashPassword(BENCH_PASSWORD),
          notificationSecret: 'bench-notification-secret',
        },
      ],
    }),
  );
  const credentials = Buffer.from(`merchant.TESTBENCH:${BENCH_PASSWORD}`).toString('base64');
  return { merchantsFile, authorization: `Basic ${credentials}` };
}
