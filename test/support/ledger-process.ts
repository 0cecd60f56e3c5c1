import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const CLI = resolve(__dirname, '../../dist/apps/ledger/src/ledger.cli.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built ledger CLI as finance would: its own process, this environment plus `env`. */
export function runLedgerCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return runBuiltCli(CLI, args, env);
}

/** Runs a built CLI script (dist/…) in its own process, this environment plus `env`. */
export function runBuiltCli(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
