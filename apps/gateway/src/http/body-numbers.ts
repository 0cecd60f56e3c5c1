/**
 * The text of each parsed body that holds a number, kept beside the body (and dropped with it)
 * so that a controller can have the contract read the numbers' literals as written
 * (`withNumberLiterals`). A body without numbers, the common one, is never recorded here.
 */
const texts = new WeakMap<object, string>();

export function keepTextOfNumbers(body: unknown, text: string): void {
  if (typeof body === 'object' && body !== null) texts.set(body, text);
}

/** The text of `body` if it holds a number. */
export function textOfNumbers(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null ? texts.get(body) : undefined;
}
