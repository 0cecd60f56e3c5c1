/** What a tamper-evidence check found, whichever store it checked. */

export type ChainProblemKind =
  | 'altered' // the content no longer matches its hash
  | 'log-link' // the previous event in the log is not the one this event was chained to
  | 'stream-link' // the previous event in the stream is not the one this event was chained to
  | 'revision-gap' // a stream's revisions skip one
  | 'reordered' // a stream's revision comes after a later one
  | 'log-tail' // events after the last one were removed
  | 'anchor'; // the recorded head is not where it was

export interface ChainProblem {
  readonly kind: ChainProblemKind;
  /** Where the problem shows: the event's global position. */
  readonly position: bigint;
  readonly streamId?: string;
  readonly revision?: number;
  readonly detail: string;
}

export interface ChainAnchor {
  readonly position: bigint;
  readonly hash: string;
}

export interface ChainReport {
  readonly events: number;
  readonly problems: readonly ChainProblem[];
  /** Problems beyond the first `maxProblems`, counted only. */
  readonly moreProblems: number;
  /** The last event: record it elsewhere and pass it back as an anchor to detect a rewritten tail. */
  readonly head?: ChainAnchor;
  /** Streams checked, when the chain is per stream only (KurrentDB). */
  readonly streams?: number;
}

/** Keeps the first `max` problems a check finds and counts the rest. */
export class ProblemList {
  readonly problems: ChainProblem[] = [];
  moreProblems = 0;

  constructor(private readonly max = 100) {}

  add(problem: ChainProblem): void {
    if (this.problems.length < this.max) this.problems.push(problem);
    else this.moreProblems += 1;
  }
}
