#!/usr/bin/env node
import type { EventReader } from '@gateway/event-store';
import { ledgerDbOf, openPostings, type PostingsStore } from '@gateway/ledger';
import { asOf } from './commands/as-of.command';
import { daily } from './commands/daily.command';
import { balances } from './commands/balances.command';
import { trialBalance } from './commands/trial-balance.command';
import { verifyPostings } from './commands/verify-postings.command';
import { exportTransactions } from './commands/export.command';
import { history } from './commands/history.command';
import { availableParallelism } from 'node:os';
import { reconcile } from './commands/reconcile.command';
import { replay } from './commands/replay.command';
import { unknownOutcomes } from './commands/unknown.command';
import { verify } from './commands/verify.command';
import { parseArgs, parseTime, UsageError } from './ledger-args';
import { COMMANDS, usageOf } from './ledger-usage';
import { checkpoint, embeddedLog, publicKey } from './commands/checkpoint.command';
import { verifyExport } from './commands/verify-export.command';
import { exportAudit } from './proofs/audit-export';
import { loadSigningKey } from './proofs/signing-key';
import { ProgressBar, stopProgressBars } from './progress-bar';
import {
  dataDirOf,
  eventStoreSelectionOf,
  openEventLog,
  toFile,
  type AuditedLog,
  type LedgerOutput,
} from './ledger-context';

/** Commands that read no event store: they answer without opening one. */
const STORELESS = new Set(['public-key', 'verify-export']);
const POSITIONAL = new Set(['history', 'as-of', 'verify-export']);

/** Runs one command against the data directory's stores, opened read-only. */
export async function runLedger(argv: readonly string[], io: LedgerOutput): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === 'help') return help(undefined, io);
  if (!command || !(command in COMMANDS))
    throw new UsageError(command ? `unknown command '${command}'` : 'no command');
  if (rest.includes('--help') || rest.includes('-h')) return help(command, io);
  const common = ['data-dir', 'event-store', 'kurrentdb'];
  const { positional, options, repeated } = parseArgs(rest, [
    ...COMMANDS[command].options,
    ...common,
  ]);
  const dataDir = dataDirOf(options.get('data-dir'));
  if (positional.length && !POSITIONAL.has(command))
    throw new UsageError(`${command} takes no argument '${positional[0]}'`);
  if (STORELESS.has(command))
    return command === 'public-key'
      ? publicKey(dataDir, io)
      : verifyExport(positional, options.get('public-key'), io);
  const audited = openEventLog(dataDir, eventStoreSelectionOf(options));
  const log: EventReader = audited.log;
  const withPostings = async (work: (store: PostingsStore) => Promise<number>) => {
    const progress = new ProgressBar('postings', 'events');
    const store = await openPostings(
      log,
      ledgerDbOf(dataDir, options.get('ledger-db')),
      (events, fraction) => progress.update(fraction, events),
    ).finally(() => progress.done());
    try {
      return await work(store);
    } finally {
      store.close();
    }
  };
  const asOfOption = options.get('as-of');
  const asOfTime = asOfOption === undefined ? undefined : parseTime(asOfOption, '--as-of');
  try {
    switch (command) {
      case 'history':
        return await history(log, positional, options.get('format'), io);
      case 'as-of':
        return await asOf(log, positional, io);
      case 'export':
        if (options.get('format') === 'audit')
          return await auditExport(audited, dataDir, options, io);
        return await toFile(options.get('out'), io, (output) =>
          exportTransactions(
            log,
            {
              merchant: options.get('merchant'),
              from: options.get('from'),
              to: options.get('to'),
              format: options.get('format'),
            },
            output,
          ),
        );
      case 'replay': {
        // The embedded log has a leaner data-only reader and can be read by several threads at
        // once; KurrentDB is read through the port, in this thread.
        const [reader, threads] =
          audited.kind === 'sqlite'
            ? [audited.log.dataReader(), threadsOf(options.get('threads'))]
            : [log, 1];
        return await replay(reader, { dataDir, out: options.get('out'), threads }, io);
      }
      case 'daily': {
        const [from, to, merchant, format] = ['from', 'to', 'merchant', 'format'].map((o) =>
          options.get(o),
        );
        return await daily(log, { from, to, merchant, format }, io);
      }
      case 'reconcile':
        return await reconcile(log, repeated.get('settlement') ?? [], options.get('format'), io);
      case 'unknown':
        return await unknownOutcomes(log, options.get('merchant'), io);
      case 'checkpoint':
        return await checkpoint(audited, dataDir, io);
      case 'balances':
        return await withPostings((store) =>
          balances(store, { merchantId: options.get('merchant'), asOf: asOfTime }, io),
        );
      case 'trial-balance':
        return await withPostings((store) =>
          trialBalance(store, asOfTime ?? new Date().toISOString(), io),
        );
      default: {
        const chain = await verify(audited, options.get('anchor'), dataDir, io);
        const postings = await withPostings((store) => verifyPostings(log, store, io));
        return Math.max(chain, postings);
      }
    }
  } finally {
    await log.close();
  }
}

function help(command: string | undefined, io: LedgerOutput): number {
  io.out.write(`${usageOf(command)}\n`);
  return 0;
}

/** An audit export covers every event of its period: the log links each to the one before. */
function auditExport(
  audited: AuditedLog,
  dataDir: string,
  options: ReadonlyMap<string, string>,
  io: LedgerOutput,
): Promise<number> {
  if (options.has('merchant'))
    throw new UsageError(
      '--format audit exports every merchant: each event is chained to the one before it in the log',
    );
  const time = (name: string) => {
    const text = options.get(name);
    return text === undefined ? undefined : parseTime(text, `--${name}`);
  };
  const range = { from: time('from'), to: time('to') };
  const log = embeddedLog(audited);
  const key = loadSigningKey(dataDir);
  return toFile(options.get('out'), io, (output) =>
    exportAudit(log, range, { dataDir, key }, output),
  );
}

function threadsOf(text: string | undefined): number {
  if (text === undefined) return Math.min(4, availableParallelism());
  const threads = Number(text);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64)
    throw new UsageError('--threads must be a whole number from 1 to 64');
  return threads;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // A reader that stops early (`| head`) ends the output: not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  try {
    process.exitCode = await runLedger(argv, { out: process.stdout, err: process.stderr });
  } catch (error) {
    stopProgressBars(); // the bar's line cleared before the message
    if (error instanceof UsageError) {
      const command = argv[0] in COMMANDS ? argv[0] : undefined;
      process.stderr.write(`ledger: ${error.message}\n${usageOf(command)}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`ledger: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  } finally {
    stopProgressBars();
  }
}

if (require.main === module) void main();
