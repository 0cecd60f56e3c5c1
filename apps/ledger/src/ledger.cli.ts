#!/usr/bin/env node
import type { EventReader } from '@gateway/event-store';
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
import { ledgerDbOf, openPostings } from './postings/open-postings';
import type { PostingsStore } from './postings/postings-store';
import {
  dataDirOf,
  eventStoreSelectionOf,
  openEventLog,
  toFile,
  type LedgerOutput,
} from './ledger-context';

const USAGE = `usage: ledger <command> [--data-dir DIR]   (default: GATEWAY_DATA_DIR, else ./data)
                [--event-store sqlite|kurrentdb] [--kurrentdb CONNECTION-STRING]
                (default: GATEWAY_EVENT_STORE, KURRENTDB_CONNECTION_STRING, as the gateway)
  history <merchant> <order> [--format table|jsonl]   every event of an order
  as-of <merchant> <order> <time>                     the order as it stood at that time
  export [--merchant M] [--from T1] [--to T2] [--format csv|jsonl] [--out FILE]
                                                      every transaction recorded in [T1, T2)
  replay [--out FILE] [--threads N]                   rebuild the read model (in N threads, default
                                                      the cores, at most 4), compare with the live one
  unknown [--merchant M]                              money whose outcome is still UNKNOWN, per
                                                      currency (folded from the log)
  daily --from D1 --to D2 [--merchant M] [--format table|csv|jsonl]
                                                      per day (UTC), merchant and currency:
                                                      authorised, captured, refunded, charged back,
                                                      settled, fees, net (settled less fees)
  reconcile --settlement FILE [--settlement FILE…] [--format table|jsonl]
                                                      the acquirer's settlement files against the
                                                      gateway's events: every exception by kind
                                                      (exit 1), the matched totals per currency
  verify [--anchor POSITION:HASH]                     check the tamper-evidence hash chain
                                                      (--anchor: embedded store only), and that
                                                      the postings follow from the events
  balances [--merchant M] [--as-of T]                 every account's balance, now or as of T
  trial-balance [--as-of T]                           debits equal credits per currency, or the
                                                      first entry that breaks it
  (balances, trial-balance, verify: [--ledger-db FILE], the postings store, default
   DATA-DIR/ledger.db, caught up with the events first)
exit status: 0 fine, 1 not found / differences / tampered, 2 usage`;

const OPTIONS: Record<string, readonly string[]> = {
  history: ['format'],
  'as-of': [],
  export: ['merchant', 'from', 'to', 'format', 'out'],
  replay: ['out', 'threads'],
  verify: ['anchor', 'ledger-db'],
  unknown: ['merchant'],
  reconcile: ['settlement', 'format'],
  daily: ['from', 'to', 'merchant', 'format'],
  balances: ['merchant', 'as-of', 'ledger-db'],
  'trial-balance': ['as-of', 'ledger-db'],
};

/** Runs one command against the data directory's stores, opened read-only. */
export async function runLedger(argv: readonly string[], io: LedgerOutput): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || !(command in OPTIONS))
    throw new UsageError(command ? `unknown command '${command}'` : 'no command');
  const common = ['data-dir', 'event-store', 'kurrentdb'];
  const { positional, options, repeated } = parseArgs(rest, [...OPTIONS[command], ...common]);
  const dataDir = dataDirOf(options.get('data-dir'));
  if (positional.length && !['history', 'as-of'].includes(command))
    throw new UsageError(`${command} takes no argument '${positional[0]}'`);
  const audited = openEventLog(dataDir, eventStoreSelectionOf(options));
  const log: EventReader = audited.log;
  const withPostings = async (work: (store: PostingsStore) => Promise<number>) => {
    const store = await openPostings(log, ledgerDbOf(dataDir, options.get('ledger-db')));
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
      case 'balances':
        return await withPostings((store) =>
          balances(store, { merchantId: options.get('merchant'), asOf: asOfTime }, io),
        );
      case 'trial-balance':
        return await withPostings((store) =>
          trialBalance(store, asOfTime ?? new Date().toISOString(), io),
        );
      default: {
        const chain = await verify(audited, options.get('anchor'), io);
        const postings = await withPostings((store) => verifyPostings(log, store, io));
        return Math.max(chain, postings);
      }
    }
  } finally {
    await log.close();
  }
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
    if (error instanceof UsageError) {
      process.stderr.write(`ledger: ${error.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`ledger: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
}

if (require.main === module) void main();
