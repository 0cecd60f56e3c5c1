import { hashOfChainedRow, type ChainedRow } from '@gateway/event-store';
import type { KeyObject } from 'node:crypto';
import { AUDIT_FORMAT, type AuditHeader } from './audit-export';
import { isSignedBy, type Checkpoint } from './checkpoint';

/** What checking an audit export found: problems name the line (1 = the header). */
export interface AuditReport {
  readonly events: number;
  readonly checkpoints: number;
  readonly problems: string[];
  readonly header?: AuditHeader;
}

/**
 * Checks an audit export line by line, offline: every event's hash against its content (the
 * formula its row names), each link to the line before it (log) and to its stream's previous
 * event when that is in the range too, each checkpoint's signature with the auditor's public
 * key and its hash against the event at its position, and that the last event is signed for,
 * so lines cut off the end show too. Memory holds one entry per stream, not the lines.
 */
export class AuditVerifier {
  private line = 0;
  private header?: AuditHeader;
  private readonly signed = new Map<string, { checkpoint: Checkpoint; line: number }>();
  private last?: { position: bigint; hash: string; line: number };
  private readonly streams = new Map<string, { revision: number; hash: string }>();
  private events = 0;
  private checkpoints = 0;
  private readonly problems: string[] = [];

  constructor(private readonly publicKey: KeyObject) {}

  add(text: string): void {
    this.line += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.problem('not JSON');
    }
    if (this.line === 1) return this.addHeader(value as Partial<AuditHeader>);
    if (!this.header) return;
    const { checkpoint } = value as { checkpoint?: Checkpoint };
    if (checkpoint) return this.addCheckpoint(checkpoint);
    this.addEvent(value as ChainedRow);
  }

  finish(): AuditReport {
    if (this.header) {
      const last = this.last;
      if (!last) this.problems.push('the export holds no event');
      else if (last.position !== BigInt(this.header.lastPosition))
        this.problems.push(
          `line ${last.line}: the export ends at position ${last.position}, its header at ${this.header.lastPosition}: lines after it were removed`,
        );
      else if (!this.signed.has(String(last.position)))
        this.problems.push(`line ${last.line}: the last event is covered by no signed checkpoint`);
      for (const [position, { line }] of this.signed)
        if (last === undefined || BigInt(position) > last.position)
          this.problems.push(
            `line ${line}: the checkpoint's position ${position} is not in the export`,
          );
    }
    return {
      events: this.events,
      checkpoints: this.checkpoints,
      problems: this.problems,
      ...(this.header ? { header: this.header } : {}),
    };
  }

  private addHeader(header: Partial<AuditHeader>): void {
    if (header.format !== AUDIT_FORMAT || header.version !== 1)
      return this.problem(`not an audit export (made by \`ledger export --format audit\`)`);
    this.header = header as AuditHeader;
  }

  private addCheckpoint(checkpoint: Checkpoint): void {
    if (this.last) return this.problem('a checkpoint after the events: lines were moved');
    if (!isSignedBy(checkpoint, this.publicKey))
      return this.problem(
        `checkpoint of position ${checkpoint.position} is not signed by that public key: altered, or signed by another key`,
      );
    const same = this.signed.get(String(checkpoint.position));
    if (same && same.checkpoint.hash !== checkpoint.hash)
      return this.problem(
        `checkpoint of position ${checkpoint.position} signs another hash than line ${same.line}'s: the log was rewritten between them`,
      );
    this.checkpoints += 1;
    this.signed.set(String(checkpoint.position), { checkpoint, line: this.line });
  }

  private addEvent(row: ChainedRow): void {
    if (typeof row.position !== 'string' || !/^\d+$/.test(row.position))
      return this.problem('not an event of the log (no position)');
    this.events += 1;
    const position = BigInt(row.position);
    const at = `position ${row.position}, stream ${row.streamId} revision ${row.revision}`;
    if (this.last === undefined && row.position !== this.header!.firstPosition)
      this.problem(
        `(${at}) is not the first position, ${this.header!.firstPosition}: lines before it were removed`,
      );
    if (hashOfChainedRow(row) !== row.hash)
      this.problem(`(${at}) altered: the content does not match its hash`);
    else if (
      this.last &&
      (position <= this.last.position || row.logPreviousHash !== this.last.hash)
    )
      this.problem(
        `(${at}) not chained to line ${this.last.line}: lines removed, added or reordered before it`,
      );
    this.checkStreamLink(row, at);
    const signed = this.signed.get(row.position);
    if (signed && signed.checkpoint.hash !== row.hash)
      this.problem(
        `(${at}) differs from the checkpoint signed at ${signed.checkpoint.signedAt} (line ${signed.line}): the log was rewritten`,
      );
    this.last = { position, hash: row.hash, line: this.line };
  }

  /** A stream's previous event is checked when it is in the range; the log link covers the rest. */
  private checkStreamLink(row: ChainedRow, at: string): void {
    const previous = this.streams.get(row.streamId);
    if (previous && (row.revision !== previous.revision + 1 || row.previousHash !== previous.hash))
      this.problem(`(${at}) not chained to revision ${previous.revision} of its stream`);
    this.streams.set(row.streamId, { revision: row.revision, hash: row.hash });
  }

  private problem(text: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(`line ${this.line}: ${text}`);
  }
}

const MAX_PROBLEMS = 100;
