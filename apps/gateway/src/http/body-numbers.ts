import { isJsonObject, numbersAsWrittenIn, type OperationContract } from '@gateway/contract';

/**
 * The text of each parsed body that holds a number, kept beside the body (and dropped with it)
 * so that a controller can have the contract read the numbers' literals as written
 * (`numbersAsWritten`). A body without numbers, the common one, is never recorded here.
 */
const texts = new WeakMap<object, string>();

export function keepTextOfNumbers(body: unknown, text: string): void {
  if (typeof body === 'object' && body !== null) texts.set(body, text);
}

/** Reads the literals of a body's numbers from its text, along the body's contract. */
export type LiteralsReader = (
  body: Record<string, unknown>,
  text: string,
) => Record<string, unknown>;

/** The reader for a route whose body has one contract, whatever it holds. */
export function literalsAlong(contract: OperationContract): LiteralsReader {
  return (body, text) => numbersAsWrittenIn(contract.body, body, text);
}

/**
 * Numbers at decimal, digits and integer fields judged by their literals as written (issue 14),
 * for every merchant body that has such fields: `sent` as parsed, with each such number replaced
 * by `read`. Everything after this, the retry fingerprint included, sees `100.00` as `"100.00"`.
 * A body without numbers is returned as it is, unread.
 */
export function numbersAsWritten(sent: unknown, read: LiteralsReader): unknown {
  const text = typeof sent === 'object' && sent !== null ? texts.get(sent) : undefined;
  return text !== undefined && isJsonObject(sent) ? read(sent, text) : sent;
}
