/**
 * The JSON Schema 2020-12 keywords the generated document uses, checked the way the standard
 * says: enough to confront the schemas with sample bodies without an OpenAPI validator package.
 * `format` is an annotation in 2020-12 and is not asserted; `x-*` extensions are ignored.
 */

export type Schema = Record<string, any>;

export function resolvePointer(doc: Schema, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  return pointer
    .slice(2)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<any>(
      (node, key) => (node !== null && typeof node === 'object' ? node[key] : undefined),
      doc,
    );
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

/** The violations of `value` against `schema`, as `location: keyword`; empty when it conforms. */
export function violations(doc: Schema, schema: Schema, value: unknown, at = '$'): string[] {
  const out: string[] = [];
  const fail = (keyword: string) => out.push(`${at}: ${keyword}`);
  if (schema.$ref)
    out.push(...violations(doc, resolvePointer(doc, schema.$ref) as Schema, value, at));
  const types: string[] | undefined = schema.type === undefined ? undefined : [schema.type].flat();
  if (types && !types.some((type) => typeMatches(type, value))) return [...out, `${at}: type`];
  if (schema.enum && !schema.enum.includes(value)) fail('enum');

  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) fail('minLength');
    if (schema.maxLength !== undefined && length > schema.maxLength) fail('maxLength');
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
      fail('pattern');
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail('minimum');
    if (schema.maximum !== undefined && value > schema.maximum) fail('maximum');
    if (schema.multipleOf !== undefined) {
      const quotient = value / schema.multipleOf;
      if (Math.abs(quotient - Math.round(quotient)) > 1e-9) fail('multipleOf');
    }
  }
  if (typeMatches('object', value)) {
    const object = value as Record<string, unknown>;
    const properties: Schema = schema.properties ?? {};
    for (const name of schema.required ?? [])
      if (!Object.hasOwn(object, name)) fail(`required ${name}`);
    if (schema.maxProperties !== undefined && Object.keys(object).length > schema.maxProperties)
      fail('maxProperties');
    for (const [name, member] of Object.entries(object)) {
      if (schema.propertyNames)
        out.push(...violations(doc, schema.propertyNames, name, `${at}[name ${name}]`));
      if (Object.hasOwn(properties, name))
        out.push(...violations(doc, properties[name], member, `${at}.${name}`));
      else if (schema.additionalProperties === false) fail(`additionalProperties ${name}`);
      else if (typeof schema.additionalProperties === 'object')
        out.push(...violations(doc, schema.additionalProperties, member, `${at}.${name}`));
    }
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail('maxItems');
    if (schema.items)
      value.forEach((item, i) => out.push(...violations(doc, schema.items, item, `${at}[${i}]`)));
  }

  const passes = (sub: Schema) => violations(doc, sub, value, at).length === 0;
  for (const sub of schema.allOf ?? []) out.push(...violations(doc, sub, value, at));
  if (schema.anyOf && !schema.anyOf.some(passes)) fail('anyOf');
  if (schema.oneOf && schema.oneOf.filter(passes).length !== 1) fail('oneOf');
  return out;
}
