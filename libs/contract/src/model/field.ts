/**
 * The contract vocabulary. Every rule is plain data (no functions, no classes) so that the
 * validator, the OpenAPI document and the generated tests can all be derived from the same objects.
 */

/** Leaf rules: one JSON value, checked on its own. */
export type LeafRule =
  /** Any characters; `pattern` (regex source) narrows them, `format` says so in words for the error. */
  | {
      readonly kind: 'string';
      readonly min: number;
      readonly max: number;
      readonly pattern?: string;
      readonly format?: string;
    }
  | { readonly kind: 'ascii'; readonly min: number; readonly max: number }
  | { readonly kind: 'alphanumeric'; readonly min: number; readonly max: number }
  /** A string of digits; `range` bounds its numeric value (compared exactly, any length). */
  | {
      readonly kind: 'digits';
      readonly min: number;
      readonly max: number;
      readonly range?: { readonly min?: number; readonly max?: number };
    }
  /** Request decimal string: 0-9 and '.', 1-14 characters, at most 3 decimals; '-' only when allowed. */
  | { readonly kind: 'decimal'; readonly allowNegative?: boolean }
  /** An integer: a JSON number, or a string of its digits (the validated value is the number). */
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  /** Comma-separated list of enum values, without repeats. */
  | { readonly kind: 'enumList'; readonly values: readonly string[] }
  | { readonly kind: 'alpha3Upper' }
  | { readonly kind: 'date' }
  | { readonly kind: 'dateTime' }
  | { readonly kind: 'httpsUrl' }
  | { readonly kind: 'email' }
  | { readonly kind: 'base64'; readonly lengths: readonly number[] };

export type LeafKind = LeafRule['kind'];

interface FieldInfo {
  /** Short human description, reused for OpenAPI. */
  readonly description: string;
  /** Required whenever the enclosing group is supplied (at the top level: always). */
  readonly required?: boolean;
  /** Card data: an error never echoes the value. */
  readonly sensitive?: boolean;
}

export type LeafField = LeafRule & FieldInfo;

export interface GroupField extends FieldInfo {
  readonly kind: 'group';
  readonly fields: Fields;
  /** Rules that relate several members; paths are relative to this group. */
  readonly checks?: readonly CrossCheck[];
}

/** A JSON array of groups: `order.item[n]`. */
export interface ArrayField extends FieldInfo {
  readonly kind: 'array';
  readonly of: GroupField;
  readonly maxItems: number;
}

/** Merchant-named members: `order.custom.X`. */
export interface MapField extends FieldInfo {
  readonly kind: 'map';
  readonly maxKeys?: number;
  /** Regex source every member name must match, and the same in words for the error. */
  readonly keyPattern: string;
  readonly keyFormat: string;
  readonly value: LeafRule;
  /** Limit on the UTF-8 bytes of all values together. */
  readonly maxTotalBytes?: number;
}

export type Field = LeafField | GroupField | ArrayField | MapField;
export type Fields = { readonly [name: string]: Field };

/**
 * Rules across fields. Paths are dotted, relative to the group that declares the check; none of
 * them crosses an array (checks on items are expressed from the group holding the array).
 */
export type CrossCheck =
  /** `target` equals the sum of the `add` fields minus the `subtract` fields, when any `add` field is given. */
  | {
      readonly check: 'sumEquals';
      readonly target: string;
      readonly add: readonly string[];
      readonly subtract: readonly string[];
    }
  /** `target` equals sum(quantity x `price`) over the `items` array, when both are given. */
  | {
      readonly check: 'itemSum';
      readonly target: string;
      readonly items: string;
      readonly quantity: string;
      readonly price: string;
    }
  | {
      readonly check: 'requiredWhen';
      readonly field: string;
      readonly when: { readonly field: string; readonly equals: string };
    }
  | { readonly check: 'differs'; readonly field: string; readonly from: string }
  /** At least one of `fields` is supplied; reported as missing on the first. */
  | { readonly check: 'oneOf'; readonly fields: readonly string[] };

export type ApiOperation =
  | 'AUTHORIZE'
  | 'PAY'
  | 'CAPTURE'
  | 'VOID'
  | 'REFUND'
  | 'VERIFY'
  | 'INITIATE_AUTHENTICATION'
  | 'AUTHENTICATE_PAYER'
  | 'INITIATE_BROWSER_PAYMENT'
  | 'CONFIRM_BROWSER_PAYMENT'
  | 'UPDATE_AUTHORIZATION';

export interface OperationContract {
  readonly apiOperation: ApiOperation;
  /** The version of the spec this shape is shown for; undefined when one shape serves every version. */
  readonly version?: number;
  readonly description: string;
  /** The request body; its `apiOperation` member is the fixed value. */
  readonly body: GroupField;
}
