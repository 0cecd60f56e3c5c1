import { childPath, indexPath } from './contract-paths';
import { invalidValue } from './explain';
import type { Violation } from './request-validator';

/**
 * "Absent means absent" (behaviour notes): a JSON null, and an object whose members are all absent,
 * count as not supplied. Merchant client libraries send every group, empty where unused, and nulls;
 * removing them first lets required and must-not-be-supplied rules see one spelling only.
 *
 * Inside a non-empty array an absent element keeps its place (as null) so that indexes stay as sent;
 * the validator rejects it. An array with no present element is itself absent.
 */
/** Member names an object inherits: class-transformer would skip or misuse them, so they are never accepted. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * No contract nests more than a handful of levels. Deeper input (JSON.parse takes any depth) is
 * refused before any recursive walk could exhaust the stack.
 */
export const MAX_DEPTH = 32;

/** The refusal of a body nested too deep, at the first member too deep (`firstTooDeep`). */
export function tooDeepViolation(path: string): Violation {
  const explanation = invalidValue(
    undefined,
    true,
    `It is nested more than ${MAX_DEPTH} levels deep`,
  );
  return { path, validationType: 'INVALID', explanation };
}

export interface Normalized {
  /** The body without absent members; undefined if nothing was supplied. */
  readonly value: unknown;
  /** A present member carries an inherited name (`__proto__`, `constructor`, ...); it was left out of `value`. */
  readonly hasInheritedNames: boolean;
  /** Something is nested deeper than MAX_DEPTH; `value` is then incomplete. */
  readonly tooDeep: boolean;
}

export function normalize(body: unknown): Normalized {
  let hasInheritedNames = false;
  let tooDeep = false;
  const prune = (value: unknown, depth: number): unknown => {
    if (value === null) return undefined;
    if (typeof value !== 'object') return value;
    if (depth === MAX_DEPTH) {
      tooDeep = true;
      return undefined;
    }
    if (Array.isArray(value)) {
      let present = false;
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const element = prune(value[i], depth + 1);
        if (element === undefined) out[i] = null;
        else {
          out[i] = element;
          present = true;
        }
      }
      return present ? out : undefined;
    }
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const member = prune((value as Record<string, unknown>)[key], depth + 1);
      if (member === undefined) continue;
      if (INHERITED.has(key)) hasInheritedNames = true;
      else (out ??= {})[key] = member;
    }
    return out;
  };
  const value = prune(body, 0);
  return { value, hasInheritedNames, tooDeep };
}

export function isInheritedName(name: string): boolean {
  return INHERITED.has(name);
}

/** True when `value` is a present (non-absent) JSON value, by the same rule as `normalize`. */
export function isPresent(value: unknown, depth = 0): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value !== 'object' || depth === MAX_DEPTH) return true;
  return Object.values(value).some((member) => isPresent(member, depth + 1));
}

/** The path of the first member nested MAX_DEPTH deep, walking no deeper than that. */
export function firstTooDeep(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth === MAX_DEPTH) return path;
  for (const [name, member] of Object.entries(value)) {
    const at = Array.isArray(value) ? indexPath(path, Number(name)) : childPath(path, name);
    const found = firstTooDeep(member, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
