import { redactCardLikeRuns } from '@gateway/domain';
import type { RequestError } from './validate';
import { childPath, indexPath } from './engine/contract-paths';
import { invalidValue } from './engine/explain';
import { MAX_DEPTH, tooDeepViolation } from './engine/normalize';

/**
 * The longest list any contract accepts (`order.item`); `json-shape.spec.ts` keeps it in step
 * with the contracts.
 */
export const MAX_LIST_ELEMENTS = 1000;

/** Objects and arrays may nest this deep, the body itself counting as the first (as in normalize). */
const MAX_NESTING = MAX_DEPTH;
/** Spec: error.field is 1-100 characters. */
const FIELD_LIMIT = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * Refuses JSON text nested deeper than the contracts allow, or holding a list longer than any
 * contract accepts, before it is parsed: such a body is never built in memory nor walked by
 * anything recursive. The answer names the field as the validator would, with its wording.
 * Malformed text is left to the parser.
 */
export function jsonShapeError(text: string): RequestError | undefined {
  return scanJsonShape(text).error;
}

/** What one scan of a body's text finds: an excess to refuse, and whether it holds a number. */
export interface JsonShape {
  readonly error?: RequestError;
  /** A number literal outside strings: only then can a number sit where a string is expected. */
  readonly holdsNumbers: boolean;
}

const WITHOUT_NUMBERS: JsonShape = { holdsNumbers: false };
const WITH_NUMBERS: JsonShape = { holdsNumbers: true };

/**
 * jsonShapeError, and in the same pass whether the text holds a number: a number begins with
 * '-' or a digit, which outside strings nothing else does. Costs a comparison or two per
 * character outside strings, and nothing is allocated for a body that passes.
 */
export function scanJsonShape(text: string): JsonShape {
  numbersSeen = false;
  const offset = firstExcess(text);
  if (offset !== undefined)
    return { error: describeExcess(text, offset), holdsNumbers: numbersSeen };
  return numbersSeen ? WITH_NUMBERS : WITHOUT_NUMBERS;
}

// One scan at a time (the event loop is single-threaded): the per-level state is reused.
const isList = new Uint8Array(MAX_NESTING + 1);
const commas = new Int32Array(MAX_NESTING + 1);
let numbersSeen = false;

/** Where the first container too deep opens, or the comma after a list's last allowed element. */
function firstExcess(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === MAX_NESTING) return i;
      depth++;
      isList[depth] = c === OPEN_ARRAY ? 1 : 0;
      commas[depth] = 0;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return undefined;
      depth--;
    } else if (c === COMMA) {
      if (isList[depth] === 1 && ++commas[depth] === MAX_LIST_ELEMENTS) return i;
    } else if (c <= DIGIT_9 && (c >= DIGIT_0 || c === MINUS)) numbersSeen = true;
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start` (or the end of the text). */
export function stringEnd(text: string, start: number): number {
  let end = start;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

interface Level {
  readonly list: boolean;
  /** The current member's name (objects) or element index (lists). */
  name: string;
  index: number;
  /** Objects: the next string is a member name. */
  expectName: boolean;
}

/**
 * The slow path, taken only for a refused body: scans again up to the excess, now keeping
 * member names and indexes, to name the field.
 */
function describeExcess(text: string, offset: number): RequestError {
  const levels: Level[] = [];
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    const level = levels[levels.length - 1];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (level && !level.list && level.expectName) {
        level.name = memberName(text.slice(i, end + 1));
        level.expectName = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      levels.push({ list: c === OPEN_ARRAY, name: '', index: 0, expectName: true });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) levels.pop();
    else if (c === COMMA && level) {
      level.index++;
      level.expectName = true;
    }
  }
  if (text.charCodeAt(offset) !== COMMA) {
    const { path, explanation } = tooDeepViolation(fieldOf(levels));
    return { field: path, validationType: 'INVALID', explanation };
  }
  const list = levels.pop()!;
  const elements = list.index + 1 + listCommasFrom(text, offset);
  const reason = `It has ${elements} elements, but must have at most ${MAX_LIST_ELEMENTS}`;
  const explanation = invalidValue(undefined, true, reason);
  const field = fieldOf(levels);
  return field ? { field, validationType: 'INVALID', explanation } : { explanation };
}

/**
 * The path as the merchant sent it, without card-like digit runs. A path longer than the spec's
 * 100 characters for error.field names the deepest enclosing member that fits instead.
 */
function fieldOf(levels: readonly Level[]): string {
  let path = '';
  for (const level of levels) {
    const next = level.list ? indexPath(path, level.index) : childPath(path, level.name);
    if (next.length > FIELD_LIMIT) break;
    path = next;
  }
  return redactCardLikeRuns(path);
}

function memberName(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

/** Commas at the list's own level from its comma at `offset` to its end. */
function listCommasFrom(text: string, offset: number): number {
  let depth = 0;
  let count = 0;
  for (let i = offset; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth-- === 0) break;
    } else if (c === COMMA && depth === 0) count++;
  }
  return count;
}
