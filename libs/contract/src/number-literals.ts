import { stringEnd } from './json-shape';
import type { Field, GroupField } from './model/field';
import { isSupportedVersion, resolveContract } from './operations/registry';

/**
 * Numbers where strings are expected (behaviour notes, "What real merchant clients need besides
 * their fields"): a Java SDK built on BigDecimal sends `"amount": 100.00` and
 * `"number": 5123450000000008`. A decimal or digits field holding a JSON number is judged as the
 * string of its literal exactly as written in the body, never through floating point (`100.00`
 * is `"100.00"`, `5123450000000009999` keeps its last digits, `1e2` is refused as `"1e2"` is). An
 * integer field keeps a number written as an integer; any other literal (`1e2`, `24.0`) becomes
 * its text, which the integer rule refuses. A number anywhere else stays a number, refused as
 * before.
 *
 * JSON.parse has already turned the literals into doubles, and Node 20's JSON.parse gives no
 * access to the source text, so the literals are recovered from the body's text with the small
 * parser below, and only for a body that holds a number at such a field.
 */
export function withNumberLiterals(
  version: number,
  body: Record<string, unknown>,
  text: string,
): Record<string, unknown> {
  const { apiOperation } = body;
  if (typeof apiOperation !== 'string' || !isSupportedVersion(version)) return body;
  const contract = resolveContract(apiOperation, version);
  return contract ? numbersAsWritten(contract.body, body, text) : body;
}

/** The body with every number at a decimal, digits or integer field of `shape` judged by its literal. */
export function numbersAsWritten(
  shape: GroupField,
  body: Record<string, unknown>,
  text: string,
): Record<string, unknown> {
  const found: NumberAt[] = [];
  numbersIn(shape, body, [], found);
  if (found.length === 0) return body;
  const literals = literalsOf(text);
  let converted = body;
  for (const { path, integer } of found) {
    const literal = literalAt(literals, path);
    if (literal !== undefined && !(integer && INTEGER_LITERAL.test(literal)))
      converted = replaced(converted, path, 0, literal) as Record<string, unknown>;
  }
  return converted;
}

type Path = readonly (string | number)[];

/** A number sent at a numeric field: its path (member names and indexes) and whether an integer is asked for. */
interface NumberAt {
  readonly path: Path;
  readonly integer: boolean;
}

const NUMERIC_KINDS = new Set(['decimal', 'digits', 'integer']);
const INTEGER_LITERAL = /^-?[0-9]+$/;

function numbersIn(field: Field, sent: unknown, path: Path, found: NumberAt[]): void {
  if (field.kind === 'group') {
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return;
    for (const name in sent) {
      const member = (sent as Record<string, unknown>)[name];
      if (Object.hasOwn(field.fields, name))
        numbersIn(field.fields[name], member, [...path, name], found);
    }
  } else if (field.kind === 'array') {
    if (Array.isArray(sent))
      sent.forEach((element, i) => numbersIn(field.of, element, [...path, i], found));
  } else if (typeof sent === 'number' && NUMERIC_KINDS.has(field.kind))
    found.push({ path, integer: field.kind === 'integer' });
}

/** `value` with the member at `path` (from `depth`) replaced: copies only along the path. */
function replaced(value: unknown, path: Path, depth: number, literal: string): unknown {
  if (depth === path.length) return literal;
  const key = path[depth];
  if (Array.isArray(value)) {
    const copy = value.slice();
    copy[key as number] = replaced(value[key as number], path, depth + 1, literal);
    return copy;
  }
  const object = value as Record<string, unknown>;
  const copy = { ...object };
  copy[key] = replaced(object[key], path, depth + 1, literal);
  return copy;
}

/** A number as written in the text. */
class NumberLiteral {
  constructor(readonly text: string) {}
}

/** The text's containers, with each number as its literal and other values left out. */
type Literals = NumberLiteral | Literals[] | { [name: string]: Literals } | undefined;

function literalAt(literals: Literals, path: Path): string | undefined {
  let at: Literals = literals;
  for (const key of path) {
    if (at === undefined || at instanceof NumberLiteral) return undefined;
    at = Array.isArray(at) ? at[key as number] : Object.hasOwn(at, key) ? at[key] : undefined;
  }
  return at instanceof NumberLiteral ? at.text : undefined;
}

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

const NUMBER_CHAR = /[-+.eE0-9]/;

/**
 * A JSON parser that keeps only what the conversion needs. It reads text JSON.parse has
 * accepted, and agrees with it where they overlap: the last of two members of the same name wins,
 * member names are unescaped as JSON.parse unescapes them. Objects have no prototype, so a member
 * named like an Object.prototype property is a member like any other.
 */
export function parseLiterals(text: string): Literals {
  // Fastify's parser drops a byte order mark before parsing; so does this one.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const value = (): Literals => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      const members: { [name: string]: Literals } = Object.create(null);
      skipSpace();
      if (text[i] === '}') {
        i++;
        return members;
      }
      for (;;) {
        skipSpace();
        const end = stringEnd(text, i);
        const literal = text.slice(i, end + 1);
        const name = literal.includes('\\')
          ? (JSON.parse(literal) as string)
          : literal.slice(1, -1);
        i = end + 1;
        skipSpace();
        i++; // ':'
        members[name] = value();
        skipSpace();
        if (text[i++] === '}') return members;
      }
    }
    if (c === '[') {
      i++;
      const elements: Literals[] = [];
      skipSpace();
      if (text[i] === ']') {
        i++;
        return elements;
      }
      for (;;) {
        elements.push(value());
        skipSpace();
        if (text[i++] === ']') return elements;
      }
    }
    if (c === '"') {
      i = stringEnd(text, i) + 1;
      return undefined;
    }
    const start = i;
    if (c === '-' || (c >= '0' && c <= '9')) {
      while (i < text.length && NUMBER_CHAR.test(text[i])) i++;
      return new NumberLiteral(text.slice(start, i));
    }
    while (i < text.length && text[i] >= 'a' && text[i] <= 'z') i++; // true, false, null
    if (i === start) throw new SyntaxError(`Unexpected character at ${start}`);
    return undefined;
  };
  return value();
}
