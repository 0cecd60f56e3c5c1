import type { Entry } from '@gateway/accounting';
import { formatAmount } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { checkPostingsFollow, type PostingsStore } from '@gateway/ledger';
import type { LedgerOutput } from '../ledger-context';
import { ProgressBar } from '../progress-bar';

/**
 * `verify`'s second half: the postings in ledger.db follow from the events (the rules run again
 * give the same entries). Prints the first entry that differs, as the rules make it and as
 * stored; exit 1 then.
 */
export async function verifyPostings(
  log: EventReader,
  store: PostingsStore,
  io: LedgerOutput,
): Promise<number> {
  const progress = new ProgressBar('postings', 'events');
  const report = await checkPostingsFollow(log, store, (events, fraction) =>
    progress.update(fraction, events),
  );
  progress.done();
  const { difference } = report;
  if (difference) {
    io.out.write(`POSTINGS DIFFER at entry ${difference.entryId}\n`);
    io.out.write(`  from the events: ${describe(difference.expected)}\n`);
    io.out.write(`  in ledger.db:    ${describe(difference.found)}\n`);
    return 1;
  }
  io.out.write(`${report.entries} postings of ${report.events} events follow from the events\n`);
  return 0;
}

function describe(entry: Entry | undefined): string {
  if (!entry) return '(none)';
  const lines = entry.lines.map((l) =>
    'debit' in l
      ? `${l.account} Dr ${formatAmount(l.debit)}`
      : `${l.account} Cr ${formatAmount(l.credit)}`,
  );
  return `${entry.eventType} ${entry.merchantId}/${entry.orderId} ${entry.currency} ${entry.time}: ${lines.join(', ')}`;
}
