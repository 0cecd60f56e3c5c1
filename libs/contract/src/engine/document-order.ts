import { childPath, indexPath, parentPath } from './contract-paths';
import type { Violation } from './request-validator';

/**
 * Where a violation sits in the body as sent: its pre-order position (a broken value at its own
 * member; a missing field just before the end of the nearest enclosing member that was sent), then
 * minus that member's depth (inner groups close first), then the contract's declaration order.
 */
export type OrderKey = readonly [position: number, closing: number, declaration: number];

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
  const sortKey = (v: Violation): OrderKey => {
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
    if (compareOrder(violations[i], key, best, bestKey) < 0) {
      best = violations[i];
      bestKey = key;
    }
  }
  return best;
}

/** Negative when `a` comes before `b`. */
export function compareOrder(a: Violation, ak: OrderKey, b: Violation, bk: OrderKey): number {
  for (let i = 0; i < 3; i++) if (ak[i] !== bk[i]) return ak[i] - bk[i];
  // Identical positions: settle on the text so the choice never depends on discovery order.
  return a.explanation < b.explanation ? -1 : a.explanation > b.explanation ? 1 : 0;
}

/** Members in a subtree, itself included: what it occupies in the pre-order numbering. */
function size(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let count = 1;
  for (const member of Object.values(value)) count += size(member);
  return count;
}

/** `order.item[2].name` → order, item, 2, name. */
function namesOf(path: string): (string | number)[] {
  const names: (string | number)[] = [];
  for (const part of path.split('.')) {
    const bracket = part.indexOf('[');
    names.push(bracket < 0 ? part : part.slice(0, bracket));
    if (bracket >= 0)
      for (const index of part.slice(bracket + 1, -1).split('][')) names.push(+index);
  }
  return names;
}

/**
 * The key `firstInDocumentOrder` gives one violation, found by walking down to its path instead
 * of numbering the whole body. Only for bodies whose member names are plain (not empty, no '.'
 * or '['), where a path names exactly one member.
 */
export function orderKeyOf(
  violation: Violation,
  sent: unknown,
  declarationIndex: (path: string) => number,
): OrderKey {
  const names = namesOf(violation.path);
  const chain: unknown[] = [sent];
  const starts = [0];
  for (const name of names) {
    const node = chain[chain.length - 1];
    const key = String(name);
    if (
      typeof node !== 'object' ||
      node === null ||
      Array.isArray(node) !== (typeof name === 'number') ||
      !Object.hasOwn(node, key)
    ) {
      break;
    }
    let start = starts[starts.length - 1] + 1;
    for (const sibling of Object.keys(node)) {
      if (sibling === key) break;
      start += size((node as Record<string, unknown>)[sibling]);
    }
    chain.push((node as Record<string, unknown>)[key]);
    starts.push(start);
  }
  const declaration = declarationIndex(violation.path);
  const found = chain.length - 1;
  if (violation.validationType === 'INVALID' && found === names.length)
    return [starts[found], 0, declaration];
  const depth = Math.min(found, names.length - 1);
  return [starts[depth] + size(chain[depth]) - 0.5, -depth, declaration];
}
