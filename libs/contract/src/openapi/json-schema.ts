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

/** `text` as a literal inside a pattern; only syntax characters, as unicode-mode regexes require. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
