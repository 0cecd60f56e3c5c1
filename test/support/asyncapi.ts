import { Parser, type Input } from '@asyncapi/parser';
import { createRequire } from 'node:module';

type Json = Record<string, unknown>;

/** Dependencies of @asyncapi/parser as the parser itself resolves them (its JSON Schema tools). */
const parserDependency = createRequire(require.resolve('@asyncapi/parser'));

export interface CheckedAsyncApi {
  /** The parser's diagnostics of severity error (0) and warning (1), as `code: message at path`. */
  readonly problems: string[];
  /** Problems of `payload` against the message's payload schema, as the parser resolved it. */
  validate(messageId: string, payload: unknown): string[];
}

/** Parses the document with @asyncapi/parser; validates payloads with the parser's own ajv. */
export async function checkAsyncApi(document: Json): Promise<CheckedAsyncApi> {
  const { document: parsed, diagnostics } = await new Parser().parse(document as Input);
  const problems = diagnostics
    .filter((d) => d.severity <= 1)
    .map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`);
  const Ajv = parserDependency('ajv').default;
  const addFormats = parserDependency('ajv-formats').default;
  // strict off: the parser adds x-parser-* keys to every schema it resolves.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, (payload: unknown) => boolean>();
  return {
    problems,
    validate(messageId, payload) {
      let check = validators.get(messageId);
      if (!check) {
        const message = parsed?.components().messages().get(messageId);
        if (!message) throw new Error(`the document has no message ${messageId}`);
        check = ajv.compile(message.payload()!.json()) as (payload: unknown) => boolean;
        validators.set(messageId, check);
      }
      if (check(payload)) return [];
      const errors = (check as unknown as { errors: { instancePath: string; message: string }[] })
        .errors;
      return errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
    },
  };
}
