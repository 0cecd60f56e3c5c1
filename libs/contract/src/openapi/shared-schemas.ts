import { ref, type JsonSchema } from './json-schema';

/**
 * Object schemas that occur more than once across the given schemas (address, customer, card, ...)
 * become named components referenced by `$ref`: the document states each group once, and code
 * generators get one type per group. Identity is structural (the serialised schema), because
 * operations compose groups afresh from the same field objects. `reserved` names other
 * components of the document, which a shared group must not take.
 */
export function shareObjectSchemas(
  roots: Record<string, JsonSchema>,
  reserved: readonly string[],
): Record<string, JsonSchema> {
  const keys = new WeakMap<JsonSchema, string>();
  const keyOf = (schema: JsonSchema): string => {
    let key = keys.get(schema);
    if (key === undefined) {
      key = JSON.stringify(schema);
      keys.set(schema, key);
    }
    return key;
  };
  const shared = chooseShared(Object.values(roots), keyOf);
  return nameShared(roots, shared, keyOf, reserved);
}

const isObjectSchema = (schema: JsonSchema): boolean => typeof schema.properties === 'object';

/** Direct subschemas that can hold object schemas: properties and array items. */
function children(schema: JsonSchema): JsonSchema[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const items = schema.items as JsonSchema | undefined;
  return [...Object.values(properties), ...(items ? [items] : [])];
}

/**
 * Largest first: a group that is shared hides its members, so they count once however often the
 * group itself appears (a smaller group never contains a larger one, so earlier choices stand).
 */
function chooseShared(
  roots: JsonSchema[],
  keyOf: (s: JsonSchema) => string,
): Map<string, JsonSchema> {
  const candidates = new Map<string, JsonSchema>();
  const collect = (schema: JsonSchema): void => {
    for (const child of children(schema)) {
      if (isObjectSchema(child)) candidates.set(keyOf(child), child);
      collect(child);
    }
  };
  roots.forEach(collect);

  const shared = new Map<string, JsonSchema>();
  const occurrences = (key: string): number => {
    let count = 0;
    const visit = (schema: JsonSchema): void => {
      for (const child of children(schema)) {
        const childKey = isObjectSchema(child) ? keyOf(child) : undefined;
        if (childKey === key) count++;
        if (childKey === undefined || !shared.has(childKey)) visit(child);
      }
    };
    [...roots, ...shared.values()].forEach(visit);
    return count;
  };
  const bySize = [...candidates.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  for (const key of bySize) if (occurrences(key) > 1) shared.set(key, candidates.get(key)!);
  return shared;
}

const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * Names come from where a group is first met, in document order: the shortest tail of its path
 * not yet taken (`Address`, then `BillingAddress`), else the whole path prefixed by the root's
 * name up to its first '_' (the operation of `Refund_v26`: `RefundTransaction`), else by the root.
 */
function nameShared(
  roots: Record<string, JsonSchema>,
  shared: Map<string, JsonSchema>,
  keyOf: (s: JsonSchema) => string,
  reserved: readonly string[],
): Record<string, JsonSchema> {
  const taken = new Set([...reserved, ...Object.keys(roots)]);
  const names = new Map<string, string>();
  const components: Record<string, JsonSchema> = {};

  const nameFor = (root: string, path: string[]): string => {
    const words = path.map(pascal);
    for (let start = words.length - 1; start >= 0; start--) {
      const name = words.slice(start).join('');
      if (!taken.has(name)) return name;
    }
    const qualified = `${root.split('_')[0]}${words.join('')}`;
    return taken.has(qualified) ? `${root}_${words.join('')}` : qualified;
  };

  const rewrite = (schema: JsonSchema, root: string, path: string[]): JsonSchema => {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    const items = schema.items as JsonSchema | undefined;
    if (!properties && !items) return schema;
    const out: JsonSchema = { ...schema };
    if (properties) {
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, child]) => [
          name,
          replace(child, root, [...path, name]),
        ]),
      );
    }
    if (items) out.items = replace(items, root, path);
    return out;
  };

  const replace = (schema: JsonSchema, root: string, path: string[]): JsonSchema => {
    const key = isObjectSchema(schema) ? keyOf(schema) : undefined;
    if (key === undefined || !shared.has(key)) return rewrite(schema, root, path);
    let name = names.get(key);
    if (name === undefined) {
      name = nameFor(root, path);
      taken.add(name);
      names.set(key, name);
      components[name] = {}; // reserves the place: a group is listed before the groups inside it
      components[name] = rewrite(schema, root, path);
    }
    return ref(name);
  };

  const rewritten = Object.fromEntries(
    Object.entries(roots).map(([root, schema]) => [root, rewrite(schema, root, [])]),
  );
  return { ...rewritten, ...components };
}
