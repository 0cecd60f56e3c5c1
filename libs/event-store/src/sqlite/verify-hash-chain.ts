import type Database from 'better-sqlite3';
import {
  ProblemList,
  type ChainAnchor,
  type ChainProblem,
  type ChainReport,
} from '../chain-report';
import { GENESIS_HASH } from '../hash-chain';
import { hashOfChainedRow } from './chained-rows';

export interface VerifyOptions {
  readonly anchor?: ChainAnchor;
  readonly maxProblems?: number;
  /** Called every few thousand events with the rows checked so far out of twice the count. */
  readonly onProgress?: (done: number, total: number) => void;
}

interface HashedRow {
  position: bigint;
  stream_id: string;
  revision: bigint;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
  previous_hash: string | null;
  log_previous_hash: string | null;
  hash: string | null;
  chain_format: bigint;
}

const PROGRESS_EVERY = 5000;

/**
 * Checks the tamper evidence of an event log in two streaming passes (memory does not grow with
 * the log): in log order, every event's hash against its content and its log predecessor; in
 * stream order, every stream's revisions and links. The AUTOINCREMENT counter then shows
 * whether events after the last one were removed.
 */
export function verifyHashChain(db: Database.Database, options: VerifyOptions = {}): ChainReport {
  const found = new ProblemList(options.maxProblems);
  const report = (problem: ChainProblem): void => found.add(problem);
  const count = Number(db.prepare('SELECT count(*) FROM events').pluck().get());
  const total = count * 2;
  let done = 0;
  const tick = (): void => {
    done += 1;
    if (done % PROGRESS_EVERY === 0) options.onProgress?.(done, total);
  };

  let logTail: { position: bigint; hash: string } | undefined;
  const inLogOrder = db.prepare('SELECT * FROM events ORDER BY position').safeIntegers(true);
  for (const row of inLogOrder.iterate() as IterableIterator<HashedRow>) {
    tick();
    const at = { position: row.position, streamId: row.stream_id, revision: Number(row.revision) };
    const expectedLogPrevious = logTail?.hash ?? GENESIS_HASH;
    if (row.hash === null || row.hash !== hashOf(row)) {
      report({ kind: 'altered', ...at, detail: 'content does not match its hash' });
    } else if (row.log_previous_hash !== expectedLogPrevious) {
      report({
        kind: 'log-link',
        ...at,
        detail: logTail
          ? `chained to an event other than the one at position ${logTail.position}: events removed or reordered before it`
          : 'chained to an earlier event, but it is the first: events removed before it',
      });
    }
    logTail = { position: row.position, hash: row.hash ?? '' };
  }

  let previous: { streamId: string; revision: number; hash: string | null } | undefined;
  const inStreamOrder = db
    .prepare(
      'SELECT position, stream_id, revision, previous_hash, hash FROM events ORDER BY stream_id, revision',
    )
    .safeIntegers(true);
  for (const row of inStreamOrder.iterate() as IterableIterator<HashedRow>) {
    tick();
    const revision = Number(row.revision);
    const at = { position: row.position, streamId: row.stream_id, revision };
    const sameStream = previous?.streamId === row.stream_id;
    const expectedRevision = sameStream ? previous!.revision + 1 : 0;
    if (revision !== expectedRevision) {
      report({
        kind: 'revision-gap',
        ...at,
        detail: `revision ${expectedRevision} of the stream is missing`,
      });
    } else if (row.previous_hash !== (sameStream ? previous!.hash : GENESIS_HASH)) {
      report({
        kind: 'stream-link',
        ...at,
        detail: 'not chained to the previous event of its stream: events replaced or reordered',
      });
    }
    previous = { streamId: row.stream_id, revision, hash: row.hash };
  }

  const sequence = db
    .prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'")
    .safeIntegers(true)
    .pluck()
    .get() as bigint | undefined;
  const last = logTail?.position ?? 0n;
  if (sequence !== undefined && sequence > last) {
    report({
      kind: 'log-tail',
      position: last + 1n,
      detail: `positions ${last + 1n} to ${sequence} were written and are gone: the log's last events were removed`,
    });
  }
  if (options.anchor) checkAnchor(db, options.anchor, report);
  options.onProgress?.(total, total);
  const { problems, moreProblems } = found;
  return { events: count, problems, moreProblems, ...(logTail ? { head: logTail } : {}) };
}

function checkAnchor(
  db: Database.Database,
  anchor: ChainAnchor,
  report: (problem: ChainProblem) => void,
): void {
  const hash = db
    .prepare('SELECT hash FROM events WHERE position = ?')
    .pluck()
    .get(anchor.position) as string | undefined;
  if (hash !== anchor.hash) {
    report({
      kind: 'anchor',
      position: anchor.position,
      detail: hash
        ? 'holds another hash than the one recorded: the log was rewritten up to here'
        : 'the recorded event is gone',
    });
  }
}

/** undefined: a format no code writes, which only an edit of the row can give. */
function hashOf(row: HashedRow): string | undefined {
  return hashOfChainedRow({
    streamId: row.stream_id,
    revision: Number(row.revision),
    eventId: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
    format: Number(row.chain_format),
    previousHash: row.previous_hash ?? '',
    logPreviousHash: row.log_previous_hash ?? '',
  });
}
