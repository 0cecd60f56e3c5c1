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

export interface Normalized {
  /** The body without absent members; undefined if nothing was supplied. */
  readonly value: unknown;
  /** A present member carries an inherited name (`__proto__`, `constructor`, ...); it was left out of `value`. */
  readonly hasInheritedNames: boolean;
}

export function normalize(body: unknown): Normalized {
  let hasInheritedNames = false;
  const prune = (value: unknown): unknown => {
    if (value === null) return undefined;
    if (typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let present = false;
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const element = prune(value[i]);
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
      const member = prune((value as Record<string, unknown>)[key]);
      if (member === undefined) continue;
      if (INHERITED.has(key)) hasInheritedNames = true;
      else (out ??= {})[key] = member;
    }
    return out;
  };
  const value = prune(body);
  return { value, hasInheritedNames };
}

export function isInheritedName(name: string): boolean {
  return INHERITED.has(name);
}

/** True when `value` is a present (non-absent) JSON value, by the same rule as `normalize`. */
export function isPresent(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.some(isPresent);
  return Object.values(value).some(isPresent);
}
