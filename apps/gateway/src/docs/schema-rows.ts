/**
 * A JSON Schema flattened into one row per field, with its constraints in words, for the docs
 * page. Reads only the keywords the generated OpenAPI document uses.
 */

export interface Schema {
  readonly $ref?: string;
  /** Two for the fields that take a number as well as a string: `['string', 'number']`. */
  readonly type?: string | readonly string[];
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly additionalProperties?: boolean | Schema;
  readonly propertyNames?: Schema;
  readonly allOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly format?: string;
  readonly contentEncoding?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly multipleOf?: number;
  readonly maxItems?: number;
  readonly maxProperties?: number;
  readonly discriminator?: {
    readonly propertyName: string;
    readonly mapping: Readonly<Record<string, string>>;
  };
  readonly 'x-gateway-range'?: { readonly minimum?: number; readonly maximum?: number };
  readonly 'x-gateway-list-values'?: readonly string[];
  readonly 'x-gateway-max-total-bytes'?: number;
  readonly 'x-gateway-sensitive'?: boolean;
  readonly 'x-gateway-rules'?: readonly string[];
  readonly 'x-gateway-versions'?: {
    readonly shown: number | null;
    readonly from: number;
    readonly to: number;
  };
}

/** Words, then values to show as code: `one of` + [`A`, `B`]. */
export interface Constraint {
  readonly text: string;
  readonly code?: readonly string[];
}

export interface FieldRow {
  /** `order.item[].quantity`; `order.custom.*` for the members of a map. */
  readonly path: string;
  readonly type: string;
  /** Within its group, whenever the group is sent. */
  readonly required: boolean;
  readonly constraints: readonly Constraint[];
  readonly description: string;
}

type Resolve = (ref: string) => Schema;

/** The schema behind `$ref`s, with `allOf` parts merged (as Retrieve Order's response uses them). */
export function flatten(schema: Schema, resolve: Resolve): Schema {
  const own = schema.$ref ? flatten(resolve(schema.$ref), resolve) : schema;
  const { allOf, ...rest } = own;
  if (!allOf) return own;
  const parts = allOf.map((part) => flatten(part, resolve));
  return {
    ...rest,
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
}

const lengthText = (min = 0, max?: number): string =>
  max === undefined
    ? `length at least ${min}`
    : min === max
      ? `length ${min}`
      : `length ${min}-${max}`;

const boundsText = (min?: number, max?: number): string =>
  min !== undefined && max !== undefined
    ? `${min} to ${max}`
    : min !== undefined
      ? `at least ${min}`
      : `at most ${max}`;

export function constraintsOf(schema: Schema): Constraint[] {
  const out: Constraint[] = [];
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    out.push({ text: lengthText(schema.minLength, schema.maxLength) });
  if (schema.anyOf && schema.anyOf.every((s) => !s.$ref))
    out.push({
      text: schema.anyOf
        .map((s) =>
          constraintsOf(s)
            .map((c) => c.text)
            .join(', '),
        )
        .join(' or '),
    });
  const range = schema['x-gateway-range'];
  // A string's range that the number's bounds already state (integer and digits fields, which
  // take both) is said once, of the value.
  const sameRange =
    range !== undefined && range.minimum === schema.minimum && range.maximum === schema.maximum;
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    out.push({
      text: `${sameRange ? 'value ' : ''}${boundsText(schema.minimum, schema.maximum)}`,
    });
  if (schema.multipleOf !== undefined) out.push({ text: `multiple of ${schema.multipleOf}` });
  if (schema.format) out.push({ text: `format ${schema.format}` });
  if (schema.contentEncoding) out.push({ text: schema.contentEncoding });
  if (schema.enum) out.push({ text: 'one of', code: schema.enum.map(String) });
  if (schema.pattern) out.push({ text: 'pattern', code: [schema.pattern] });
  if (range && !sameRange) out.push({ text: `value ${boundsText(range.minimum, range.maximum)}` });
  const list = schema['x-gateway-list-values'];
  if (list) out.push({ text: 'comma-separated, each at most once, of', code: list });
  if (schema.maxItems !== undefined) out.push({ text: `at most ${schema.maxItems} elements` });
  if (schema.propertyNames?.pattern)
    out.push({ text: 'member names match', code: [schema.propertyNames.pattern] });
  if (schema.maxProperties !== undefined)
    out.push({ text: `at most ${schema.maxProperties} members` });
  const bytes = schema['x-gateway-max-total-bytes'];
  if (bytes !== undefined) out.push({ text: `values total at most ${bytes} UTF-8 bytes` });
  if (schema['x-gateway-sensitive']) out.push({ text: 'sensitive: never echoed in errors' });
  for (const rule of schema['x-gateway-rules'] ?? []) out.push({ text: `rule: ${rule}` });
  return out;
}

const componentSuffix = (schema: Schema): string =>
  schema.$ref ? ` (${schema.$ref.split('/').pop()})` : '';

/** `string or number`. */
const typeName = (schema: Schema): string => [schema.type ?? 'any'].flat().join(' or ');

/** `object (Address)` names the shared component a group comes from. */
function typeOf(schema: Schema, flat: Schema, items: Schema | undefined): string {
  if (items) return `array of ${typeName(items)}${componentSuffix(flat.items ?? {})}`;
  if (flat.propertyNames) return 'object (map)';
  return `${typeName(flat)}${componentSuffix(schema)}`;
}

/** Every field under `schema`, depth first in declaration order. */
export function fieldRows(schema: Schema, resolve: Resolve): FieldRow[] {
  const rows: FieldRow[] = [];
  const visit = (group: Schema, prefix: string): void => {
    const required = new Set(group.required ?? []);
    for (const [name, member] of Object.entries(group.properties ?? {})) {
      const flat = flatten(member, resolve);
      const items = flat.items ? flatten(flat.items, resolve) : undefined;
      const path = `${prefix}${name}`;
      rows.push({
        path,
        type: typeOf(member, flat, items),
        required: required.has(name),
        constraints: constraintsOf(flat),
        description: flat.description ?? '',
      });
      if (flat.properties) visit(flat, `${path}.`);
      if (items?.properties) visit(items, `${path}[].`);
      if (typeof flat.additionalProperties === 'object') {
        const value = flat.additionalProperties;
        rows.push({
          path: `${path}.*`,
          type: typeName(value),
          required: false,
          constraints: constraintsOf(value),
          description: 'A member of the map',
        });
      }
    }
  };
  visit(flatten(schema, resolve), '');
  return rows;
}
