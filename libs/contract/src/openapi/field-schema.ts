import type { Field, GroupField, LeafRule, MapField } from '../model/field';
import { describeCheck } from './check-text';
import { escapeRegex, type JsonSchema } from './json-schema';

/**
 * Contract fields as JSON Schema. Each leaf rule maps to the keywords that say the same thing; where
 * JSON Schema has no keyword for a rule (the numeric range of a digit string, repeats in a
 * comma-separated list, a byte budget, rules across fields) an `x-gateway-*` extension carries it,
 * so nothing the validator enforces is silently dropped.
 */

/** The engine's decimal: at most 3 decimals and at most 1,000,000,000,000 in size, leading zeros allowed. */
const DECIMAL = '0*([0-9]{1,12}([.][0-9]{1,3})?|1000000000000([.]0{1,3})?)';
const DECIMAL_MAX_LENGTH = 14;

/** ISO 8601 with seconds, as the engine reads it: stricter than RFC 3339 (upper-case T, 1-9 fraction digits). */
const DATE_TIME =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$';

/** Whole 4-character groups, the last one padded with '=': the length is a multiple of 4. */
const BASE64 = '^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

function lengths(min: number, max: number): JsonSchema {
  return { minLength: min, maxLength: max };
}

/** A digit string's bounds, named as JSON Schema names them for numbers. */
function numericRange(range: { readonly min?: number; readonly max?: number }): JsonSchema {
  return {
    ...(range.min !== undefined ? { minimum: range.min } : {}),
    ...(range.max !== undefined ? { maximum: range.max } : {}),
  };
}

/*
 * Decimal, digits and integer fields take a JSON number as well as a string (behaviour notes,
 * "Numbers where strings are expected"): their schemas have two types, each keyword applying to
 * its own (lengths and pattern to the string, minimum and maximum to the number), so a generated
 * client may send either. A number is judged by its literal as the string would be; the bounds say
 * what of that JSON Schema can: a digits number has no leading zero, so `min` digits are at least
 * 10^(min-1).
 */

const DECIMAL_SIZE = 1_000_000_000_000;

function digitsNumberBounds(rule: Extract<LeafRule, { kind: 'digits' }>): JsonSchema {
  const shortest = rule.min > 1 ? 10 ** (rule.min - 1) : 0;
  return {
    minimum: Math.max(rule.range?.min ?? 0, shortest),
    ...(rule.range?.max !== undefined ? { maximum: rule.range.max } : {}),
  };
}

export function leafSchema(rule: LeafRule): JsonSchema {
  switch (rule.kind) {
    case 'string':
      return {
        type: 'string',
        ...lengths(rule.min, rule.max),
        ...(rule.pattern ? { pattern: rule.pattern } : {}),
      };
    case 'ascii':
      return { type: 'string', ...lengths(rule.min, rule.max), pattern: '^[\\x00-\\x7F]*$' };
    case 'alphanumeric':
      return { type: 'string', ...lengths(rule.min, rule.max), pattern: '^[A-Za-z0-9]*$' };
    case 'digits':
      return {
        type: ['string', 'integer'],
        ...lengths(rule.min, rule.max),
        pattern: '^[0-9]*$',
        ...digitsNumberBounds(rule),
        ...(rule.range ? { 'x-gateway-range': numericRange(rule.range) } : {}),
      };
    case 'decimal':
      return {
        type: ['string', 'number'],
        ...lengths(1, DECIMAL_MAX_LENGTH),
        pattern: `^${rule.allowNegative ? '-?' : ''}${DECIMAL}$`,
        minimum: rule.allowNegative ? -DECIMAL_SIZE : 0,
        maximum: DECIMAL_SIZE,
      };
    case 'integer':
      // The string's range, which `minimum` and `maximum` cannot state, goes in the extension.
      return {
        type: ['integer', 'string'],
        minimum: rule.min,
        maximum: rule.max,
        pattern: '^-?[0-9]+$',
        'x-gateway-range': numericRange(rule),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: [...rule.values] };
    case 'enumList': {
      const value = `(${rule.values.map(escapeRegex).join('|')})`;
      return {
        type: 'string',
        pattern: `^${value}(,${value})*$`,
        // The pattern cannot say "without repeats"; the extension names the values once more.
        'x-gateway-list-values': [...rule.values],
      };
    }
    case 'alpha3Upper':
      return { type: 'string', ...lengths(3, 3), pattern: '^[A-Z]{3}$' };
    case 'date':
      return { type: 'string', format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' };
    case 'dateTime':
      return { type: 'string', format: 'date-time', pattern: DATE_TIME };
    case 'httpsUrl':
      return {
        type: 'string',
        format: 'uri',
        minLength: 12,
        pattern: '^[Hh][Tt][Tt][Pp][Ss]://\\S+$',
      };
    case 'email':
      return { type: 'string', format: 'email', minLength: 4 };
    case 'base64': {
      const [only, ...others] = rule.lengths;
      return {
        type: 'string',
        contentEncoding: 'base64',
        ...(others.length === 0
          ? lengths(only, only)
          : { anyOf: rule.lengths.map((length) => lengths(length, length)) }),
        pattern: BASE64,
      };
    }
  }
}

function mapSchema(field: MapField): JsonSchema {
  return {
    type: 'object',
    description: field.description,
    propertyNames: { pattern: field.keyPattern },
    additionalProperties: leafSchema(field.value),
    ...(field.maxKeys !== undefined ? { maxProperties: field.maxKeys } : {}),
    ...(field.maxTotalBytes !== undefined
      ? { 'x-gateway-max-total-bytes': field.maxTotalBytes }
      : {}),
  };
}

/** Unknown members are rejected by the gateway, hence `additionalProperties: false`. */
export function groupSchema(group: GroupField): JsonSchema {
  const names = Object.keys(group.fields);
  const required = names.filter((name) => group.fields[name].required);
  return {
    type: 'object',
    description: group.description,
    properties: Object.fromEntries(names.map((name) => [name, fieldSchema(group.fields[name])])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(group.checks ? { 'x-gateway-rules': group.checks.map(describeCheck) } : {}),
  };
}

export function fieldSchema(field: Field): JsonSchema {
  switch (field.kind) {
    case 'group':
      return groupSchema(field);
    case 'array':
      return {
        type: 'array',
        description: field.description,
        items: groupSchema(field.of),
        maxItems: field.maxItems,
      };
    case 'map':
      return mapSchema(field);
    default: {
      const { type, ...constraints } = leafSchema(field);
      return {
        type,
        description: field.description,
        ...constraints,
        ...(field.sensitive ? { 'x-gateway-sensitive': true } : {}),
      };
    }
  }
}
