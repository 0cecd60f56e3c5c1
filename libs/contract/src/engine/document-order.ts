import { childPath, indexPath, parentPath } from './contract-paths';
import type { Violation } from './request-validator';

interface Span {
  readonly start: number;
  /** Position just after the member's last descendant. */
  readonly end: number;
  readonly depth: number;
}

/** Pre-order positions of every member of the body as sent, absent ones included. */
function spans(body: unknown): Map<string, Span> {
  const result = new Map<string, Span>();
  let next = 0;
  const visit = (value: unknown, path: string, depth: number): void => {
    const start = next++;
    if (Array.isArray(value))
      value.forEach((element, i) => visit(element, indexPath(path, i), depth + 1));
    else if (typeof value === 'object' && value !== null) {
      for (const [name, member] of Object.entries(value))
        visit(member, childPath(path, name), depth + 1);
    }
    result.set(path, { start, end: next, depth });
  };
  visit(body, '', 0);
  return result;
}

/**
 * The violation a merchant meets first reading the body top to bottom. A broken value sits where it
 * was sent. A missing field sits at the end of the nearest enclosing member that was sent (the
 * body itself at worst): inner groups close before outer ones, and fields missing from one group
 * follow the contract's declaration order.
 */
export function firstInDocumentOrder(
  violations: readonly Violation[],
  sent: unknown,
  declarationIndex: (path: string) => number,
): Violation {
  const positions = spans(sent);
  const sortKey = (v: Violation): [number, number, number] => {
    const own = positions.get(v.path);
    if (own && v.validationType === 'INVALID') return [own.start, 0, declarationIndex(v.path)];
    let ancestor = parentPath(v.path);
    while (!positions.has(ancestor)) ancestor = parentPath(ancestor);
    const span = positions.get(ancestor) as Span;
    return [span.end - 0.5, -span.depth, declarationIndex(v.path)];
  };
  let best = violations[0];
  let bestKey = sortKey(best);
  for (let i = 1; i < violations.length; i++) {
    const key = sortKey(violations[i]);
    if (compare(key, bestKey, violations[i], best) < 0) {
      best = violations[i];
      bestKey = key;
    }
  }
  return best;
}

function compare(
  a: [number, number, number],
  b: [number, number, number],
  va: Violation,
  vb: Violation,
): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  // Identical positions: settle on the text so the choice never depends on discovery order.
  return va.explanation < vb.explanation ? -1 : va.explanation > vb.explanation ? 1 : 0;
}
