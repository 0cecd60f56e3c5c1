#!/usr/bin/env node
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseCommand, UsageError, type AcquirerCommand } from './acquirer-args';
import {
  connectionOf,
  postJson,
  type GatewayAnswer,
  type GatewayConnection,
} from './gateway-client';

export const USAGE = `usage: acquirer <command> [--gateway URL] [--ca FILE]
  dispute --merchant M --order O [--amount A]     the acquirer opens a dispute on a captured order
                                                  (default amount: all that can still be disputed)
  chargeback --merchant M --order O [--amount A]  the acquirer takes money back: a CHARGEBACK
                                                  (default amount: the open dispute's, else all
                                                  that can still be charged back)
  settle --merchant M --date YYYY-MM-DD --out FILE
                                                  close the merchant's batches of that day and write
                                                  the acquirer's settlement file (CSV; '-': stdout;
                                                  a directory, or a path ending in '/': M-DATE.csv
                                                  in it; missing directories are created)
Test merchants only. --gateway: default GATEWAY_URL, else http://127.0.0.1:8080; --ca: a PEM CA
trusted for an https gateway (default GATEWAY_CA_FILE); GATEWAY_OPERATOR_TOKEN: the operator
API's bearer token (without one the gateway answers loopback clients only).
exit status: 0 done, 1 refused or gateway unreachable, 2 usage`;

export interface CliOutput {
  /** A line (the newline added). */
  out(text: string): void;
  err(text: string): void;
  /** Bytes as they are: a settlement file on stdout. */
  write(text: string): void;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Operators' commands for what the acquirer tells the gateway later (docs/acquirer.md): each is
 * one request to the gateway's operator API, which records it as the acquirer's fact. Returns the
 * exit code.
 */
export async function runAcquirerCli(
  argv: readonly string[],
  io: CliOutput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let command: AcquirerCommand;
  let connection: GatewayConnection;
  try {
    const parsed = parseCommand(argv);
    command = parsed.command;
    connection = connectionOf(parsed.connection, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (command.command === 'help') {
    io.out(USAGE);
    return 0;
  }
  let answer: GatewayAnswer;
  try {
    answer = await send(connection, command);
  } catch (error) {
    io.err(`cannot reach the gateway at ${connection.url.origin}: ${(error as Error).message}`);
    return 1;
  }
  if (answer.status >= 300) {
    io.err(refusal(answer));
    return 1;
  }
  if (command.command === 'settle') return writeSettlement(command, answer, io);
  io.out(summary(command.command, JSON.parse(answer.text) as Json));
  return 0;
}

function send(
  connection: GatewayConnection,
  command: Exclude<AcquirerCommand, { command: 'help' }>,
): Promise<GatewayAnswer> {
  if (command.command === 'settle')
    return postJson(connection, '/operator/acquirer/settlement', {
      merchantId: command.merchantId,
      date: command.date,
    });
  const { merchantId, orderId, amount } = command;
  return postJson(connection, `/operator/acquirer/${command.command}`, {
    merchantId,
    orderId,
    ...(amount !== undefined ? { amount } : {}),
  });
}

/** The spec's error object as one line: its explanation and the field at fault. */
function refusal(answer: GatewayAnswer): string {
  let error: Json | undefined;
  try {
    error = (JSON.parse(answer.text) as Json).error as Json | undefined;
  } catch {
    error = undefined;
  }
  const what = error?.explanation ?? error?.cause ?? answer.text.slice(0, 200);
  const field = error?.field ? ` (${error.field})` : '';
  const hint =
    answer.status === 401 ? '; set GATEWAY_OPERATOR_TOKEN to the gateway operator token' : '';
  return `refused, HTTP ${answer.status}: ${what}${field}${hint}`;
}

function summary(command: 'dispute' | 'chargeback', body: Json): string {
  const order = body.order as Json;
  const where = `order ${order.id} of ${order.merchant}`;
  if (command === 'dispute') {
    const dispute = body.dispute as Json;
    return `dispute ${dispute.id} opened on ${where}: ${dispute.amount} ${dispute.currency} of transaction ${dispute.transactionId}; order status ${order.status}`;
  }
  const chargeback = body.chargeback as Json;
  const inAll =
    order.totalChargebackAmount !== undefined
      ? `, charged back in all ${order.totalChargebackAmount}`
      : '';
  return `chargeback ${chargeback.transactionId} processed on ${where}: ${chargeback.amount} ${chargeback.currency} of transaction ${chargeback.targetTransactionId}; order status ${order.status}${inAll}`;
}

/**
 * Written whole or not at all: a temporary file beside FILE, renamed over it. The directories on
 * the way are created (a settlement directory not made yet); FILE naming a directory means the
 * file M-DATE.csv in it, the name the console's reconciliation lists.
 */
function writeSettlement(
  command: Extract<AcquirerCommand, { command: 'settle' }>,
  answer: GatewayAnswer,
  io: CliOutput,
): number {
  if (command.out === '-') {
    io.write(answer.text);
    return 0;
  }
  const lines = answer.text.split('\n').filter((line) => line !== '').length;
  const out = isDirectory(command.out)
    ? join(command.out, `${command.merchantId}-${command.date}.csv`)
    : command.out;
  mkdirSync(dirname(out), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp`;
  writeFileSync(temporary, answer.text);
  renameSync(temporary, out);
  io.out(
    `settlement file of ${command.merchantId} for ${command.date} written to ${out} (${lines} lines)`,
  );
  return 0;
}

function isDirectory(path: string): boolean {
  return /[/\\]$/.test(path) || (statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false);
}

/** Exit codes through process.exitCode: a settlement file piped to stdout is written out first. */
async function main(): Promise<void> {
  const io: CliOutput = {
    out: (text) => process.stdout.write(`${text}\n`),
    write: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(`${text}\n`),
  };
  try {
    process.exitCode = await runAcquirerCli(process.argv.slice(2), io);
  } catch (error) {
    io.err(`acquirer: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
