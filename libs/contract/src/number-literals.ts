import { stringEnd } from './json-shape';
import { changedElements } from './engine/integer-strings';
import type { Field, GroupField } from './model/field';
import { isSupportedVersion, resolveContract } from './operations/registry';

/**
 * Numbers where strings are expected (behaviour notes, "What real merchant clients need besides
 * their fields"): a Java SDK built on BigDecimal sends `"amount": 100.00` and
 * `"number": 5123450000000008`. A decimal or digits field holding a JSON number is judged as the
 * string of its literal exactly as written in the body, never through floating point (`100.00`
 * is `"100.00"`, `5123450000000009999` keeps its last digits, `1e2` is refused as `"1e2"` is). An
 * integer field, which takes a string of digits too, gets its literal the same way: `30` is
 * `"30"`, which the integer rule accepts as 30, and `24.0` is `"24.0"`, which it refuses. A number
 * anywhere else stays a number, refused as before.
 *
 * JSON.parse has already turned the literals into doubles, and Node 20's JSON.parse gives no
 * access to the source text, so the literals are recovered from the body's text with the small
 * parser below, and only for a body whose text holds a number (scanJsonShape).
 */
export function withNumberLiterals(
  version: number,
  body: Record<string, unknown>,
  text: string,
): Record<string, unknown> {
  const { apiOperation } = body;
  if (typeof apiOperation !== 'string' || !isSupportedVersion(version)) return body;
  const contract = resolveContract(apiOperation, version);
  return contract ? numbersAsWrittenIn(contract.body, body, text) : body;
}

/** The body with every number at a decimal, digits or integer field of `shape` judged by its literal. */
export function numbersAsWrittenIn(
  shape: GroupField,
  body: Record<string, unknown>,
  text: string,
): Record<string, unknown> {
  return withLiterals(shape, body, literalsOf(text)) as Record<string, unknown>;
}

const NUMERIC_KINDS = new Set(['decimal', 'digits', 'integer']);

/**
 * `sent` with each number at a numeric field of `field` replaced by its literal, walking `field`,
 * `sent` and the text's `literals` side by side. Only the text's containers and numbers are
 * entered, and only the objects along a replaced number's way are copied: a body with no number
 * at such a field is returned as it came.
 */
function withLiterals(field: Field, sent: unknown, literals: Literals): unknown {
  if (literals instanceof NumberLiteral)
    return typeof sent === 'number' && NUMERIC_KINDS.has(field.kind) ? literals.text : sent;
  if (literals === undefined || sent === null || typeof sent !== 'object') return sent;
  if (field.kind === 'array') {
    if (!Array.isArray(sent) || !Array.isArray(literals)) return sent;
    return changedElements(sent, (element, i) => withLiterals(field.of, element, literals[i]));
  }
  if (field.kind !== 'group' || Array.isArray(sent) || Array.isArray(literals)) return sent;
  const object = sent as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const name in object) {
    if (!Object.hasOwn(field.fields, name)) continue;
    const next = withLiterals(field.fields[name], object[name], literals[name]);
    if (next !== object[name]) (copy ??= { ...object })[name] = next;
  }
  return copy ?? object;
}

/** A number as written in the text. */
class NumberLiteral {
  constructor(readonly text: string) {}
}

/** The text's containers, with each number as its literal and other values left out. */
type Literals = NumberLiteral | Literals[] | { [name: string]: Literals } | undefined;

/**
 * Text JSON.parse has read but this parser could not (none is known) keeps its numbers as
 * numbers: refused by the contract as before, rather than failing the request.
 */
function literalsOf(text: string): Literals {
  try {
    return parseLiterals(text);
  } catch {
    return undefined;
  }
}

/** Whitespace as JSON defines it: space, tab, line feed, carriage return. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** What a number literal is made of: digits, '-', '+', '.', 'e', 'E'. */
function isNumberChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2e ||
    (code | 0x20) === 0x65
  );
}

/**
 * A JSON parser that keeps only what the conversion needs. It reads text JSON.parse has
 * accepted, and agrees with it where they overlap: the last of two members of the same name wins,
 * member names are unescaped as JSON.parse unescapes them. Objects have no prototype, so a member
 * named like an Object.prototype property is a member like any other.
 */
export function parseLiterals(text: string): Literals {
  // Fastify's parser drops a byte order mark before parsing; so does this one.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const next = (): number => {
    while (isSpace(text.charCodeAt(i))) i++;
    return text.charCodeAt(i);
  };
  const value = (): Literals => {
    const c = next();
    if (c === 0x7b /* { */) {
      i++;
      const members: { [name: string]: Literals } = Object.create(null);
      if (next() === 0x7d /* } */) {
        i++;
        return members;
      }
      for (;;) {
        next();
        const end = stringEnd(text, i);
        const name = text.slice(i + 1, end);
        i = end + 1;
        next();
        i++; // ':'
        members[name.includes('\\') ? (JSON.parse(`"${name}"`) as string) : name] = value();
        next();
        if (text.charCodeAt(i++) === 0x7d) return members;
      }
    }
    if (c === 0x5b /* [ */) {
      i++;
      const elements: Literals[] = [];
      if (next() === 0x5d /* ] */) {
        i++;
        return elements;
      }
      for (;;) {
        elements.push(value());
        next();
        if (text.charCodeAt(i++) === 0x5d) return elements;
      }
    }
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i) + 1;
      return undefined;
    }
    const start = i;
    if (isNumberChar(c)) {
      while (isNumberChar(text.charCodeAt(i))) i++;
      return new NumberLiteral(text.slice(start, i));
    }
    while (text.charCodeAt(i) >= 0x61 && text.charCodeAt(i) <= 0x7a) i++; // true, false, null
    if (i === start) throw new SyntaxError(`Unexpected character at ${start}`);
    return undefined;
  };
  return value();
}
