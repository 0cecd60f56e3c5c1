import type { ChainAnchor, ChainProblem, ChainReport, SqliteEventLog } from '@gateway/event-store';
import { UsageError } from '../ledger-args';
import type { AuditedLog, LedgerOutput } from '../ledger-context';
import { ProgressBar } from '../progress-bar';
import { keptCheckpoints } from '../proofs/checkpoints-file';

/**
 * `verify [--anchor position:hash]`: checks the hash chain of every event: on the embedded store
 * the log-wide chain (and prints the head to record for the next run), on KurrentDB each
 * stream's chain; on the embedded store also that every kept signed checkpoint (docs/ledger.md,
 * "Proofs") still matches its event. Prints each problem with its position; exit 1 when anything
 * was tampered with.
 */
export async function verify(
  audited: AuditedLog,
  anchorText: string | undefined,
  dataDir: string,
  io: LedgerOutput,
): Promise<number> {
  const anchor = anchorText === undefined ? undefined : parseAnchor(anchorText);
  const chain = await check(audited, anchor);
  const report =
    audited.kind === 'sqlite'
      ? { ...chain, problems: [...chain.problems, ...checkpointProblems(audited.log, dataDir)] }
      : chain;
  for (const p of report.problems) {
    const where = p.streamId === undefined ? '' : ` (stream ${p.streamId}, revision ${p.revision})`;
    io.out.write(`TAMPERED position ${p.position}${where}: ${p.kind}: ${p.detail}\n`);
  }
  if (report.moreProblems) io.out.write(`... and ${report.moreProblems} more problems\n`);
  const checked =
    report.streams === undefined
      ? `${report.events} events checked`
      : `${report.events} events in ${report.streams} streams checked`;
  const verdict = report.problems.length
    ? `${report.problems.length + report.moreProblems} problems`
    : 'intact';
  const head = report.head ? `; head ${report.head.position}:${report.head.hash}` : '';
  const empty = audited.kind === 'sqlite' && !report.head ? '; empty log' : '';
  io.out.write(`${checked}, ${verdict}${head}${empty}\n`);
  return report.problems.length ? 1 : 0;
}

async function check(audited: AuditedLog, anchor: ChainAnchor | undefined): Promise<ChainReport> {
  if (audited.kind === 'sqlite') {
    const progress = new ProgressBar('verify', 'rows');
    const report = audited.log.verify({
      anchor,
      onProgress: (done, total) => progress.update(done / total, done),
    });
    progress.done();
    return report;
  }
  if (anchor)
    throw new UsageError(
      '--anchor needs the embedded store: on KurrentDB each stream is chained alone, no head covers the log',
    );
  const progress = new ProgressBar('verify', 'events');
  const report = await audited.log.verify({
    onProgress: (checked, fraction) => progress.update(fraction, checked),
  });
  progress.done();
  return report;
}

/** Each kept checkpoint whose event is gone or holds another hash: the log was rewritten. */
function checkpointProblems(log: SqliteEventLog, dataDir: string): ChainProblem[] {
  const problems: ChainProblem[] = [];
  for (const signed of keptCheckpoints(dataDir, 1n, BigInt(Number.MAX_SAFE_INTEGER))) {
    const position = BigInt(signed.position);
    const [row] = log.chainedRows(position, position);
    if (row?.hash !== signed.hash)
      problems.push({
        kind: 'anchor',
        position,
        detail: `${row ? 'holds another hash than' : 'is gone, yet it is in'} the checkpoint signed at ${signed.signedAt}: the log was rewritten up to here`,
      });
  }
  return problems;
}

function parseAnchor(text: string): ChainAnchor {
  const match = /^(\d{1,19}):([0-9a-f]{64})$/.exec(text);
  if (!match)
    throw new UsageError('--anchor must be <position>:<64 hex digits>, as verify prints the head');
  return { position: BigInt(match[1]), hash: match[2] };
}
