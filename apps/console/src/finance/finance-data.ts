import { SqliteEventLog } from '@gateway/event-store';
import {
  dailyTotals,
  ledgerDbOf,
  openPostings,
  reconcile,
  SettlementFileError,
  trialBalance,
  type DailyQuery,
  type DailyRow,
  type MatchedCurrency,
  type ReconcileException,
  type TrialBalance,
} from '@gateway/ledger';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What a reconciliation found: the files read, every exception, the matched totals. */
export interface Reconciliation {
  readonly files: readonly string[];
  readonly exceptions: readonly ReconcileException[];
  readonly matched: readonly MatchedCurrency[];
}

/** The event log or a settlement file could not be read: the page says so (503), nothing leaks. */
export class FinanceUnavailable extends Error {}

/**
 * Finance's answers from the gateway's data directory, through @gateway/ledger: events.db opened
 * read-only for each question and closed after (the gateway keeps writing it; a fresh open reads
 * its latest commit), ledger.db caught up with it for the trial balance (the ledger CLI keeps the
 * same file), the acquirer's settlement files from `settlementDir` for the reconciliation.
 */
export class FinanceData {
  constructor(
    private readonly dataDir: string,
    private readonly settlementDir: string,
  ) {}

  daily(query: DailyQuery): Promise<DailyRow[]> {
    return this.withLog((log) => dailyTotals(log, query));
  }

  trialBalance(asOf: string): Promise<TrialBalance> {
    return this.withLog(async (log) => {
      const store = await openPostings(log, ledgerDbOf(this.dataDir));
      try {
        return trialBalance(store, asOf);
      } finally {
        store.close();
      }
    });
  }

  reconcile(): Promise<Reconciliation> {
    const files = settlementFilesIn(this.settlementDir);
    return this.withLog(async (log) => {
      const exceptions: ReconcileException[] = [];
      const paths = files.map((file) => join(this.settlementDir, file));
      const { matched } = await reconcile(log, paths, (exception) => {
        // Where in the files, by name: the directory is on the page once.
        const at = exception.at && relative(this.settlementDir, exception.at);
        exceptions.push(at ? { ...exception, at } : exception);
      });
      return { files, exceptions, matched };
    });
  }

  private async withLog<T>(read: (log: SqliteEventLog) => Promise<T>): Promise<T> {
    let log: SqliteEventLog;
    try {
      log = SqliteEventLog.open(join(this.dataDir, 'events.db'));
    } catch (error) {
      throw new FinanceUnavailable(`the gateway's event log: ${(error as Error).message}`);
    }
    try {
      return await read(log);
    } catch (error) {
      if (error instanceof SettlementFileError) throw new FinanceUnavailable(error.message);
      throw error;
    } finally {
      await log.close();
    }
  }
}

/** The settlement files in a directory, by name (the acquirer CLI names them by batch). */
export function settlementFilesIn(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}
