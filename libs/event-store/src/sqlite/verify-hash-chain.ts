import type Database from 'better-sqlite3';
import {
  ProblemList,
  type ChainAnchor,
  type ChainProblem,
  type ChainReport,
} from '../chain-report';
import { GENESIS_HASH } from '../hash-chain';
import { chainedRows, hashOfChainedRow } from './chained-rows';

export interface VerifyOptions {
  readonly anchor?: ChainAnchor;
  readonly maxProblems?: number;
  /** Called every few thousand events with the rows checked so far out of twice the count. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What the stream-order pass reads of a row. */
interface LinkedRow {
  position: bigint;
  stream_id: string;
  revision: bigint;
  previous_hash: string | null;
  hash: string | null;
}

const PROGRESS_EVERY = 5000;
/** SQLite's largest integer: every position is at most this. */
const MAX_POSITION = 2n ** 63n - 1n;

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
  // A missing hash or link reads as '', which matches no hash.
  for (const row of chainedRows(db, 0n, MAX_POSITION)) {
    tick();
    const position = BigInt(row.position);
    const at = { position, streamId: row.streamId, revision: row.revision };
    const expectedLogPrevious = logTail?.hash ?? GENESIS_HASH;
    if (row.hash !== hashOfChainedRow(row)) {
      report({ kind: 'altered', ...at, detail: 'content does not match its hash' });
    } else if (row.logPreviousHash !== expectedLogPrevious) {
      report({
        kind: 'log-link',
        ...at,
        detail: logTail
          ? `chained to an event other than the one at position ${logTail.position}: events removed or reordered before it`
          : 'chained to an earlier event, but it is the first: events removed before it',
      });
    }
    logTail = { position, hash: row.hash };
  }

  let previous: { streamId: string; revision: number; hash: string | null } | undefined;
  const inStreamOrder = db
    .prepare(
      'SELECT position, stream_id, revision, previous_hash, hash FROM events ORDER BY stream_id, revision',
    )
    .safeIntegers(true);
  for (const row of inStreamOrder.iterate() as IterableIterator<LinkedRow>) {
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
