import type { Thousandths } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { orderEventPages } from '../order-event-pages';
import { BatchCloses } from './batch-closes';
import { ReconcileWorkspace } from './reconcile-workspace';
import {
  exceptionsOf,
  notSettled,
  type MatchedTotal,
  type ReconcileException,
} from './reconciliation';
import { readSettlementFile, type SettledLine } from './settlement-file-reader';

const PAGE = 2000;

/** What matched in one currency: lines, and gross, fee and net as the files write them. */
export interface MatchedCurrency extends Readonly<MatchedTotal> {
  readonly currency: string;
  readonly net: Thousandths;
}

export interface Reconciled {
  /** How many exceptions were handed to `onException`: 0 when everything matched. */
  readonly exceptions: number;
  /** By currency. */
  readonly matched: readonly MatchedCurrency[];
}

/**
 * The acquirer's settlement files against the gateway's order events (every merchant's: a file
 * may settle any): each exception handed to `onException` as it is found (awaited, so a slow
 * reader holds it back), first those of the files' lines in file order, then the gateway's
 * transactions of the settled batches that no line settles. Files and events go through a
 * temporary database page by page, so memory stays flat. A file that does not follow
 * docs/settlement.md throws SettlementFileError naming its line.
 */
export async function reconcile(
  log: EventReader,
  files: readonly string[],
  onException: (exception: ReconcileException) => Promise<void> | void,
): Promise<Reconciled> {
  const work = new ReconcileWorkspace();
  try {
    for (const file of files) await loadFile(work, file);
    for await (const events of orderEventPages(log)) work.addEvents(events);
    const matched = new Map<string, MatchedTotal>();
    let exceptions = 0;
    for (const settled of work.linesWithTransactions()) {
      const found = exceptionsOf(settled);
      for (const exception of found) {
        exceptions += 1;
        await onException(exception);
      }
      if (found.length === 0) addMatched(matched, settled.line);
    }
    const closes = new BatchCloses(log);
    for (const tx of work.unsettled()) {
      exceptions += 1;
      await onException(notSettled(tx, await closes.asOf(tx.merchantId, tx.batch)));
    }
    const byCurrency = [...matched].sort(([a], [b]) => a.localeCompare(b));
    return {
      exceptions,
      matched: byCurrency.map(([currency, t]) => ({ currency, ...t, net: t.gross - t.fee })),
    };
  } finally {
    work.close();
  }
}

async function loadFile(work: ReconcileWorkspace, file: string): Promise<void> {
  let page: SettledLine[] = [];
  await readSettlementFile(file, (line) => {
    page.push(line);
    if (page.length < PAGE) return;
    work.addLines(page);
    page = [];
  });
  work.addLines(page);
}

function addMatched(matched: Map<string, MatchedTotal>, line: SettledLine): void {
  const total = matched.get(line.currency) ?? { lines: 0, gross: 0, fee: 0 };
  matched.set(line.currency, {
    lines: total.lines + 1,
    gross: total.gross + line.gross,
    fee: total.fee + line.fee,
  });
}
