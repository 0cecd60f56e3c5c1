import type { SqliteEventLog } from '@gateway/event-store';
import type { KeyObject } from 'node:crypto';
import { writeLine, type LedgerOutput } from '../ledger-context';
import { ProgressBar } from '../progress-bar';
import { signCheckpoint, type Checkpoint } from './checkpoint';
import { keepCheckpoint, keptCheckpoints } from './checkpoints-file';

/** The first line of an audit export: what the file is and the positions it covers. */
export interface AuditHeader {
  readonly format: typeof AUDIT_FORMAT;
  readonly version: 1;
  readonly firstPosition: string;
  readonly lastPosition: string;
  readonly exportedAt: string;
}

export const AUDIT_FORMAT = 'gateway-ledger-audit';

export interface AuditRange {
  readonly from?: string;
  readonly to?: string;
}

/**
 * `export --format audit`: every event recorded in [from, to), contiguous in log order with its
 * stored fields and chain links, so an auditor recomputes each hash offline (`verify-export`).
 * The range's last event gets a checkpoint signed now (also kept with the others); the kept
 * checkpoints inside the range come too: they show the log was not rewritten since they were
 * signed. Lines: the header, the checkpoints, then one event per line, streamed.
 */
export async function exportAudit(
  log: SqliteEventLog,
  range: AuditRange,
  signing: { readonly dataDir: string; readonly key: KeyObject },
  io: LedgerOutput,
): Promise<number> {
  const positions = log.positionsRecorded(range.from, range.to);
  if (!positions) {
    io.err.write('no event was recorded in that period: nothing to export\n');
    return 1;
  }
  const { first, last } = positions;
  const [lastRow] = log.chainedRows(last, last);
  const earlier = keptCheckpoints(signing.dataDir, first, last);
  const signed = signCheckpoint(signing.key, {
    position: String(last),
    hash: lastRow.hash,
    signedAt: new Date().toISOString(),
  });
  keepCheckpoint(signing.dataDir, signed);
  const header: AuditHeader = {
    format: AUDIT_FORMAT,
    version: 1,
    firstPosition: String(first),
    lastPosition: String(last),
    exportedAt: signed.signedAt,
  };
  await writeLine(io.out, JSON.stringify(header));
  for (const checkpoint of [...earlier, signed])
    await writeLine(io.out, JSON.stringify({ checkpoint } satisfies { checkpoint: Checkpoint }));
  const progress = new ProgressBar('export', 'events');
  let events = 0;
  for (const row of log.chainedRows(first, last)) {
    await writeLine(io.out, JSON.stringify(row));
    events += 1;
    if (events % 2000 === 0)
      progress.update(Number(BigInt(row.position) - first) / Number(last - first + 1n), events);
  }
  progress.done();
  io.err.write(
    `exported ${events} events, positions ${first} to ${last}, signed at position ${last}\n`,
  );
  return 0;
}
