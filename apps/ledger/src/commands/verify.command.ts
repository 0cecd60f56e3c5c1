import type { ChainAnchor, SqliteEventLog } from '@gateway/event-store';
import { UsageError } from '../ledger-args';
import type { LedgerOutput } from '../ledger-context';
import { ProgressBar } from '../progress-bar';

/**
 * `verify [--anchor position:hash]`: checks the hash chain of every event. Prints each problem with
 * its position and the head to record for the next run; exit 1 when anything was tampered with.
 */
export function verify(
  log: SqliteEventLog,
  anchorText: string | undefined,
  io: LedgerOutput,
): number {
  const anchor = anchorText === undefined ? undefined : parseAnchor(anchorText);
  const progress = new ProgressBar('verify', 'rows');
  const report = log.verify({
    anchor,
    onProgress: (done, total) => progress.update(done / total, done),
  });
  progress.done();
  for (const p of report.problems) {
    const where = p.streamId === undefined ? '' : ` (stream ${p.streamId}, revision ${p.revision})`;
    io.out.write(`TAMPERED position ${p.position}${where}: ${p.kind}: ${p.detail}\n`);
  }
  if (report.moreProblems) io.out.write(`... and ${report.moreProblems} more problems\n`);
  const head = report.head ? `head ${report.head.position}:${report.head.hash}` : 'empty log';
  const verdict = report.problems.length
    ? `${report.problems.length + report.moreProblems} problems`
    : 'intact';
  io.out.write(`${report.events} events checked, ${verdict}; ${head}\n`);
  return report.problems.length ? 1 : 0;
}

function parseAnchor(text: string): ChainAnchor {
  const match = /^(\d{1,19}):([0-9a-f]{64})$/.exec(text);
  if (!match)
    throw new UsageError('--anchor must be <position>:<64 hex digits>, as verify prints the head');
  return { position: BigInt(match[1]), hash: match[2] };
}
