import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { authorizeBody, merchantClient, type RunningGateway } from './gateway-process';

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

/**
 * The ledger suites' order of TESTMERCHANT: authorized 100.00, captured 60.00, refunded 10.50.
 * Resolves to a time between the authorization's commit and the capture's, for --as-of.
 */
export async function authorizeCaptureRefund(
  gateway: Pick<RunningGateway, 'baseUrl'>,
  orderId: string,
): Promise<string> {
  const api = merchantClient(gateway);
  const put = async (tx: string, body: unknown) =>
    expect((await api.put(`/order/${orderId}/transaction/${tx}`, body)).status).toBe(201);
  await put('a', authorizeBody('100.00'));
  await new Promise((r) => setTimeout(r, 20));
  const beforeCapture = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  await put('c', { apiOperation: 'CAPTURE', transaction: { amount: '60.00', currency: 'USD' } });
  await put('r', { apiOperation: 'REFUND', transaction: { amount: '10.50', currency: 'USD' } });
  return beforeCapture;
}
