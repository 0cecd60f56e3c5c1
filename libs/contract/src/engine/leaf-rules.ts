import { isEmail } from 'class-validator';
import type { LeafRule, MapField } from '../model/field';
import { parseThousandths } from './thousandths';

/**
 * One checker per leaf rule: returns undefined when the value conforms, else the reason in words
 * ("Length is 42 characters, but must be less than 41"). The same function decides validity (in the
 * class-validator constraint) and explains it, so the two can never disagree.
 */
export type LeafCheck = (value: unknown) => string | undefined;

const DECIMAL_MAX_LENGTH = 14;
/** Response amounts stop at 1,000,000,000,000; larger requests could not be answered. */
const DECIMAL_MAX_THOUSANDTHS = 1_000_000_000_000_000n;
const MAX_DECIMALS = 3;

/** Characters as the merchant sees them: a surrogate pair is one. */
function charLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      length--;
      i++;
    }
  }
  return length;
}

function lengthFault(text: string, min: number, max: number): string | undefined {
  // UTF-16 units bound the character count from above and at most halve it, so most values need no counting.
  if (text.length <= max && text.length >= 2 * min) return undefined;
  const length = charLength(text);
  if (length >= min && length <= max) return undefined;
  const bound =
    min === max ? `exactly ${min}` : length > max ? `less than ${max + 1}` : `at least ${min}`;
  return `Length is ${length} characters, but must be ${bound}`;
}

const NOT_STRING = 'It must be a string';

function stringCheck(
  min: number,
  max: number,
  pattern: RegExp | undefined,
  format: string,
): LeafCheck {
  return (value) => {
    if (typeof value !== 'string') return NOT_STRING;
    return (
      lengthFault(value, min, max) ??
      (pattern && !pattern.test(value) ? `It must be ${format}` : undefined)
    );
  };
}

const DIGITS = /^[0-9]*$/;

function digitsCheck(rule: Extract<LeafRule, { kind: 'digits' }>): LeafCheck {
  const { min, max, range } = rule;
  const low = range?.min === undefined ? undefined : BigInt(range.min);
  const high = range?.max === undefined ? undefined : BigInt(range.max);
  const bounds =
    low !== undefined && high !== undefined
      ? `from ${low} to ${high}`
      : low !== undefined
        ? `at least ${low}`
        : `at most ${high}`;
  return (value) => {
    if (typeof value !== 'string') return NOT_STRING;
    if (!DIGITS.test(value)) return 'It must contain only the digits 0-9';
    const fault = lengthFault(value, min, max);
    if (fault || !range) return fault;
    // Up to 15 digits a double holds the value exactly; longer ones become a BigInt, which
    // compares exactly with the number bounds.
    const number = value.length <= 15 ? +value : BigInt(value);
    return (range.min !== undefined && number < range.min) ||
      (range.max !== undefined && number > range.max)
      ? `It must be ${bounds}`
      : undefined;
  };
}

function decimalCheck(allowNegative: boolean): LeafCheck {
  const shape = allowNegative ? /^-?[0-9]+([.][0-9]+)?$/ : /^[0-9]+([.][0-9]+)?$/;
  const characters = allowNegative
    ? "the characters 0-9 and '.', with an optional leading '-'"
    : "the characters 0-9 and '.'";
  return (value) => {
    if (typeof value !== 'string') return 'It must be a string holding a decimal number';
    const fault = lengthFault(value, 1, DECIMAL_MAX_LENGTH);
    if (fault) return fault;
    if (!shape.test(value)) return `It must be a decimal number made of ${characters}`;
    const point = value.indexOf('.');
    const decimals = point < 0 ? 0 : value.length - point - 1;
    if (decimals > MAX_DECIMALS) {
      return `It has ${decimals} decimal places, but at most ${MAX_DECIMALS} are allowed (amounts are held in thousandths)`;
    }
    // Fewer than 13 integer digits cannot exceed the limit; only longer ones need exact arithmetic.
    const integerDigits = (point < 0 ? value.length : point) - (value[0] === '-' ? 1 : 0);
    if (integerDigits < 13) return undefined;
    const thousandths = parseThousandths(value) as bigint;
    const magnitude = thousandths < 0n ? -thousandths : thousandths;
    return magnitude > DECIMAL_MAX_THOUSANDTHS
      ? 'It must not exceed 1,000,000,000,000 in size'
      : undefined;
  };
}

/** Days in a month, counted as Date.UTC counts them (it reads years 0-99 as 1900-1999), without a Date. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  const y = year < 100 ? year + 1900 : year;
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})([.][0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/;

function dateCheck(value: unknown): string | undefined {
  if (typeof value !== 'string') return NOT_STRING;
  const m = DATE.exec(value);
  return m && isCalendarDate(+m[1], +m[2], +m[3])
    ? undefined
    : 'It must be a date in the form yyyy-mm-dd';
}

/** ISO 8601 with seconds; fractions and a numeric offset are accepted as well as the documented .SSSZ. */
function dateTimeCheck(value: unknown): string | undefined {
  if (typeof value !== 'string') return NOT_STRING;
  const m = DATE_TIME.exec(value);
  const valid = m && isCalendarDate(+m[1], +m[2], +m[3]) && +m[4] < 24 && +m[5] < 60 && +m[6] < 60;
  return valid ? undefined : 'It must be a date-time in the form YYYY-MM-DDThh:mm:ss.SSSZ';
}

const WHITESPACE = /\s/;

function httpsUrlCheck(value: unknown): string | undefined {
  if (typeof value !== 'string') return NOT_STRING;
  const valid =
    value.length > 11 &&
    value.slice(0, 8).toLowerCase() === 'https://' &&
    !WHITESPACE.test(value) &&
    URL.canParse(value);
  return valid ? undefined : 'It must be an https URL longer than 11 characters';
}

/** A lone surrogate (JSON allows `"\ud800"`): validator.js's isEmail throws on one. */
const LONE_SURROGATE = /\p{Cs}/u;

function emailCheck(value: unknown): string | undefined {
  if (typeof value !== 'string') return NOT_STRING;
  return value.length > 3 && !LONE_SURROGATE.test(value) && isEmail(value)
    ? undefined
    : 'It must be an email address';
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Check(lengths: readonly number[]): LeafCheck {
  const allowed = lengths.join(' or ');
  return (value) => {
    if (typeof value !== 'string') return NOT_STRING;
    if (!lengths.includes(value.length))
      return `Length is ${charLength(value)} characters, but must be ${allowed}`;
    return BASE64.test(value) && value.length % 4 === 0
      ? undefined
      : "It must be base64: A-Z a-z 0-9 '+' '/' with '=' padding";
  };
}

function enumCheck(values: readonly string[]): LeafCheck {
  const allowed = new Set(values);
  const reason = `It must be one of: ${values.join(', ')}`;
  return (value) => (typeof value === 'string' && allowed.has(value) ? undefined : reason);
}

function enumListCheck(values: readonly string[]): LeafCheck {
  const allowed = new Set(values);
  const reason = `It must be a comma-separated list, without repeats, of: ${values.join(', ')}`;
  return (value) => {
    if (typeof value !== 'string') return NOT_STRING;
    const items = value.split(',');
    return items.every((item) => allowed.has(item)) && new Set(items).size === items.length
      ? undefined
      : reason;
  };
}

/** An integer written as a string: digits, '-' first for a negative one; nothing around them. */
const INTEGER_STRING = /^-?[0-9]+$/;

/**
 * Behaviour notes: integer fields accept a JSON number as well as a string. `"30"` is judged as
 * `30` (same range); `"30.0"`, `"1e2"`, `" 30"` are not integers. The accepted string becomes its
 * number once the body is accepted (integer-strings.ts).
 */
function integerCheck(min: number, max: number): LeafCheck {
  return (value) => {
    const number = typeof value === 'string' && INTEGER_STRING.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number))
      return 'It must be an integer: digits, as a JSON number or a string, without a fraction or exponent';
    return number < min || number > max ? `It must be from ${min} to ${max}` : undefined;
  };
}

function compile(rule: LeafRule): LeafCheck {
  switch (rule.kind) {
    case 'string':
      return stringCheck(
        rule.min,
        rule.max,
        rule.pattern ? new RegExp(rule.pattern) : undefined,
        rule.format ?? '',
      );
    case 'ascii':
      return stringCheck(rule.min, rule.max, /^[\x00-\x7f]*$/, 'made of ASCII characters');
    case 'alphanumeric':
      return stringCheck(
        rule.min,
        rule.max,
        /^[A-Za-z0-9]*$/,
        'made of the characters A-Z a-z 0-9',
      );
    case 'digits':
      return digitsCheck(rule);
    case 'decimal':
      return decimalCheck(rule.allowNegative === true);
    case 'integer':
      return integerCheck(rule.min, rule.max);
    case 'boolean':
      return (value) =>
        typeof value === 'boolean' ? undefined : 'It must be true or false (a JSON boolean)';
    case 'enum':
      return enumCheck(rule.values);
    case 'enumList':
      return enumListCheck(rule.values);
    case 'alpha3Upper':
      return stringCheck(3, 3, /^[A-Z]{3}$/, 'three upper-case letters A-Z');
    case 'date':
      return dateCheck;
    case 'dateTime':
      return dateTimeCheck;
    case 'httpsUrl':
      return httpsUrlCheck;
    case 'email':
      return emailCheck;
    case 'base64':
      return base64Check(rule.lengths);
  }
}

const compiled = new WeakMap<LeafRule, LeafCheck>();

/** The checker of a rule, compiled once per rule object. */
export function leafCheck(rule: LeafRule): LeafCheck {
  let check = compiled.get(rule);
  if (!check) {
    check = compile(rule);
    compiled.set(rule, check);
  }
  return check;
}

/** A map fault: on the map itself (`member` undefined) or on one member. */
export interface MapFault {
  readonly member?: string;
  /** The member name, not its value, is at fault. */
  readonly inName?: boolean;
  readonly reason: string;
}

const mapChecks = new WeakMap<MapField, (value: unknown) => MapFault | undefined>();

/** Map-level limits first (they sit at the map's own position), then members in the order sent. */
export function mapCheck(field: MapField): (value: unknown) => MapFault | undefined {
  let check = mapChecks.get(field);
  if (check) return check;
  const keyPattern = new RegExp(field.keyPattern);
  const valueCheck = leafCheck(field.value);
  check = (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { reason: 'It must be a JSON object' };
    const members = Object.keys(value);
    if (field.maxKeys !== undefined && members.length > field.maxKeys) {
      return {
        reason: `It has ${members.length} fields, but at most ${field.maxKeys} are allowed`,
      };
    }
    const values = Object.values(value);
    if (field.maxTotalBytes !== undefined) {
      const total = values.reduce<number>(
        (sum, v) => sum + (typeof v === 'string' ? Buffer.byteLength(v) : 0),
        0,
      );
      if (total > field.maxTotalBytes) {
        return {
          reason: `Its values total ${total} bytes, but must total at most ${field.maxTotalBytes}`,
        };
      }
    }
    for (let i = 0; i < members.length; i++) {
      if (!keyPattern.test(members[i]))
        return { member: members[i], inName: true, reason: `It must be ${field.keyFormat}` };
      const reason = valueCheck(values[i]);
      if (reason) return { member: members[i], reason };
    }
    return undefined;
  };
  mapChecks.set(field, check);
  return check;
}
