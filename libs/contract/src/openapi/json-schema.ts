/**
 * A JSON Schema 2020-12 object as OpenAPI 3.1 embeds it. Kept as an open record: the document is
 * data to serialise, and the few places that read it back (sharing, rendering) check keywords
 * themselves.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const COMPONENT_PREFIX = '#/components/schemas/';

export function ref(name: string): JsonSchema {
  return { $ref: `${COMPONENT_PREFIX}${name}` };
}

/** A reference to a parameter of the document's components. */
export const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** A JSON answer: its description and the component schema it follows. */
export const json = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: ref(schema) } },
});

/** `text` as a literal inside a pattern; only syntax characters, as unicode-mode regexes require. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
