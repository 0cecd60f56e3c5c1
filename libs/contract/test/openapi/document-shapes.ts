import type { OperationContract } from '@gateway/contract';
import { resolvePointer, type Schema } from './json-schema-subset';

/** Follows `$ref`s until a schema with content. */
export function deref(doc: Schema, schema: Schema): Schema {
  let current = schema;
  while (current.$ref) current = resolvePointer(doc, current.$ref) as Schema;
  return current;
}

/** The request body schema of the PUT operation, as a client would find it. */
export function requestBodySchema(doc: Schema): Schema {
  const put = Object.values<Schema>(doc.paths).find((item) => item.put)!.put;
  return put.requestBody.content['application/json'].schema;
}

/**
 * The shapes the document offers for an operation, found the way a reader would: the
 * discriminator's mapping, then the wrapper's alternatives when there are several.
 */
export function shapesOf(doc: Schema, apiOperation: string): Schema[] {
  const body = deref(doc, requestBodySchema(doc));
  const target = resolvePointer(doc, body.discriminator.mapping[apiOperation]) as Schema;
  return target.anyOf ? target.anyOf.map((s: Schema) => deref(doc, s)) : [target];
}

/** The schema of a contract: the shape of its operation shown for its version. */
export function shapeSchemaFor(doc: Schema, contract: OperationContract): Schema {
  const shown = contract.version ?? null;
  const shape = shapesOf(doc, contract.apiOperation).find(
    (s) => s['x-gateway-versions']?.shown === shown,
  );
  if (!shape) throw new Error(`no schema for ${contract.apiOperation} ${shown}`);
  return shape;
}
