import type { ExpectedRevision, NewEvent } from './event-store.port';

/** An event as written to storage: data and metadata already JSON text. */
export interface SerializedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  /** The data as given, when the caller vouched that it is plain JSON (AppendOptions). */
  readonly value?: unknown;
}

/**
 * Validates an append and serialises its events on the caller's side, so a bad argument
 * rejects that append alone. Messages name fields and indexes, never event contents.
 * Both adapters store JSON text, so they share round-trip semantics (undefined data → null).
 */
export function serializeAppend(
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
  keepData = false,
): SerializedEvent[] {
  if (typeof streamId !== 'string' || streamId.length === 0) {
    throw new TypeError('streamId must be a non-empty string');
  }
  if (!isExpectedRevision(expected)) {
    throw new TypeError("expectedRevision must be 'no_stream', 'any' or a non-negative integer");
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw new TypeError('events must be a non-empty array');
  }
  // The events of one append usually share one metadata object: serialised once.
  let metadataOf: unknown;
  let metadataJson = '';
  return events.map((event, index) => {
    if (typeof event?.eventId !== 'string' || event.eventId.length === 0) {
      throw new TypeError(`events[${index}].eventId must be a non-empty string`);
    }
    if (typeof event.type !== 'string' || event.type.length === 0) {
      throw new TypeError(`events[${index}].type must be a non-empty string`);
    }
    if (
      typeof event.metadata !== 'object' ||
      event.metadata === null ||
      Array.isArray(event.metadata)
    ) {
      throw new TypeError(`events[${index}].metadata must be an object`);
    }
    if (event.metadata !== metadataOf) {
      metadataJson = toJson(event.metadata, `events[${index}].metadata`);
      metadataOf = event.metadata;
    }
    return {
      eventId: event.eventId,
      type: event.type,
      data: toJson(event.data, `events[${index}].data`),
      metadata: metadataJson,
      ...(keepData && event.data !== undefined ? { value: event.data } : {}),
    };
  });
}

function toJson(value: unknown, field: string): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    // The original message may quote keys of the payload; keep it out.
    throw new TypeError(`${field} is not JSON-serialisable`);
  }
}

function isExpectedRevision(value: unknown): value is ExpectedRevision {
  return (
    value === 'no_stream' ||
    value === 'any' ||
    (Number.isSafeInteger(value) && (value as number) >= 0)
  );
}

/** Whether a stream whose last revision is `actual` (-1: no stream) satisfies `expected`. */
export function revisionMatches(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  return expected === actual;
}
