import { formatAmount } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import {
  reconcile as reconcileFiles,
  type MatchedCurrency,
  type ReconcileException,
} from '@gateway/ledger';
import { oneOf, UsageError } from '../ledger-args';
import { writeLine, type LedgerOutput } from '../ledger-context';

/**
 * `reconcile --settlement FILE [--settlement FILE…] [--format table|jsonl]`: the acquirer's
 * settlement lines against the gateway's order events (reconcile, @gateway/ledger). Prints every
 * exception by kind with its order and transaction ids as it is found, then the matched totals
 * per currency; 1 when anything is unmatched.
 */
export async function reconcile(
  log: EventReader,
  files: readonly string[],
  formatOption: string | undefined,
  io: LedgerOutput,
): Promise<number> {
  if (files.length === 0) throw new UsageError('reconcile needs --settlement FILE');
  const format = oneOf(formatOption, ['table', 'jsonl'] as const, '--format', 'table');
  const report = format === 'table' ? tableReport(io.out) : jsonlReport(io.out);
  let nth = 0;
  const { exceptions, matched } = await reconcileFiles(log, files, (exception) =>
    report.exception(exception, ++nth),
  );
  await report.end(matched, exceptions);
  return exceptions === 0 ? 0 : 1;
}

interface Report {
  exception(exception: ReconcileException, nth: number): Promise<void> | undefined;
  end(matched: readonly MatchedCurrency[], exceptions: number): Promise<void>;
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
      for (const t of matched)
        await writeLine(
          out,
          `matched  ${t.currency.padEnd(8)}  ${t.lines}  ${formatAmount(t.gross)}  ${formatAmount(t.fee)}  ${formatAmount(t.net)}`,
        );
    },
  };
}

function jsonlReport(out: NodeJS.WritableStream): Report {
  return {
    exception: (e) => writeLine(out, JSON.stringify(e)),
    end: async (matched) => {
      for (const { currency, lines, ...amounts } of matched) {
        const [gross, fee, net] = [amounts.gross, amounts.fee, amounts.net].map(formatAmount);
        await writeLine(out, JSON.stringify({ kind: 'MATCHED', currency, lines, gross, fee, net }));
      }
    },
  };
}
