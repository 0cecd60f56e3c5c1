import { type ReadStreamOptions, StreamIntegrityError } from './event-store.port';

/** The revision a stream read starts at, checked. */
export function fromRevisionOf(options: ReadStreamOptions | undefined): number {
  const from = options?.fromRevision ?? 0;
  if (!Number.isSafeInteger(from) || from < 0)
    throw new TypeError('fromRevision must be a non-negative integer');
  return from;
}

/**
 * Checks that a read's events run from `from` without a gap, and returns the last revision read
 * (from - 1 when there were none): a missing event must never pass for one never written.
 */
export function checkRevisionRun(
  streamId: string,
  events: readonly { readonly revision: number }[],
  from: number,
): number {
  let expected = from;
  for (const { revision } of events) {
    if (revision !== expected)
      throw new StreamIntegrityError(
        streamId,
        `revision ${revision} where revision ${expected} was expected (read from ${from})`,
      );
    expected += 1;
  }
  return expected - 1;
}

/** Checks the last revision a read found against the stream's head as recorded elsewhere (-1: none). */
export function checkHead(streamId: string, last: number, head: number): void {
  if (last !== head) throw headMismatch(streamId, last, head);
}

export function headMismatch(streamId: string, last: number, head: number): StreamIntegrityError {
  return new StreamIntegrityError(
    streamId,
    `its head is recorded as ${describe(head)} but its events end at ${describe(last)}`,
  );
}

function describe(revision: number): string {
  return revision < 0 ? 'no event' : `revision ${revision}`;
}
