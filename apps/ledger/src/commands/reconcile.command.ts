import { formatAmount } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import {
  BatchCloses,
  exceptionsOf,
  notSettled,
  orderEventPages,
  readSettlementFile,
  ReconcileWorkspace,
  type MatchedTotal,
  type ReconcileException,
  type SettledLine,
} from '@gateway/ledger';
import { oneOf, UsageError } from '../ledger-args';
import { writeLine, type LedgerOutput } from '../ledger-context';

const PAGE = 2000;

/**
 * `reconcile --settlement FILE [--settlement FILE…] [--format table|jsonl]`: the acquirer's
 * settlement lines against the gateway's order events. Prints every exception by kind with its
 * order and transaction ids, then the matched totals per currency; 1 when anything is unmatched.
 * Files and events go through a temporary database page by page, so memory stays flat.
 */
export async function reconcile(
  log: EventReader,
  files: readonly string[],
  formatOption: string | undefined,
  io: LedgerOutput,
): Promise<number> {
  if (files.length === 0) throw new UsageError('reconcile needs --settlement FILE');
  const format = oneOf(formatOption, ['table', 'jsonl'] as const, '--format', 'table');
  const work = new ReconcileWorkspace();
  try {
    for (const file of files) await loadFile(work, file);
    for await (const events of orderEventPages(log)) work.addEvents(events);
    const report = format === 'table' ? tableReport(io.out) : jsonlReport(io.out);
    const matched = new Map<string, MatchedTotal>();
    let exceptions = 0;
    for (const settled of work.linesWithTransactions()) {
      const found = exceptionsOf(settled);
      for (const exception of found) await report.exception(exception, ++exceptions);
      if (found.length === 0) addMatched(matched, settled.line);
    }
    const closes = new BatchCloses(log);
    for (const tx of work.unsettled()) {
      const exception = notSettled(tx, await closes.asOf(tx.merchantId, tx.batch));
      await report.exception(exception, ++exceptions);
    }
    await report.end(matched, exceptions);
    return exceptions === 0 ? 0 : 1;
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

interface Report {
  exception(exception: ReconcileException, nth: number): Promise<void> | undefined;
  end(matched: ReadonlyMap<string, MatchedTotal>, exceptions: number): Promise<void>;
}

function sorted(matched: ReadonlyMap<string, MatchedTotal>): [string, MatchedTotal][] {
  return [...matched].sort(([a], [b]) => a.localeCompare(b));
}

function tableReport(out: NodeJS.WritableStream): Report {
  return {
    exception: async (e, nth) => {
      if (nth === 1)
        await writeLine(
          out,
          'kind                merchant / order / transaction  detail  (file:line)',
        );
      const ids = `${e.merchantId ?? '?'} / ${e.orderId} / ${e.transactionId}`;
      await writeLine(out, `${e.kind.padEnd(18)}  ${ids}  ${e.detail}${e.at ? `  (${e.at})` : ''}`);
    },
    end: async (matched, exceptions) => {
      await writeLine(out, `${exceptions} exception${exceptions === 1 ? '' : 's'}`);
      await writeLine(out, 'matched  currency  lines  gross  fee  net');
      for (const [currency, t] of sorted(matched))
        await writeLine(
          out,
          `matched  ${currency.padEnd(8)}  ${t.lines}  ${formatAmount(t.gross)}  ${formatAmount(t.fee)}  ${formatAmount(t.gross - t.fee)}`,
        );
    },
  };
}

function jsonlReport(out: NodeJS.WritableStream): Report {
  return {
    exception: (e) => writeLine(out, JSON.stringify(e)),
    end: async (matched) => {
      for (const [currency, t] of sorted(matched)) {
        const [gross, fee, net] = [t.gross, t.fee, t.gross - t.fee].map(formatAmount);
        await writeLine(
          out,
          JSON.stringify({ kind: 'MATCHED', currency, lines: t.lines, gross, fee, net }),
        );
      }
    },
  };
}
