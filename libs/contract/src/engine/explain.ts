/**
 * Wording of error explanations. Nothing that could be a card number reaches a client: sensitive
 * fields are never echoed, neither is any value holding 9 or more digits written together or a
 * card number in any spacing, and a last pass blanks such runs in whatever text is produced.
 */
import { holdsCardLikeRun, redactCardLikeRuns } from '@gateway/domain';

const ECHO_LIMIT = 64;

/** `Value 'ABC' is invalid.` / `Value 12 is invalid.` / `Value is invalid.` */
export function valuePrefix(value: unknown, sensitive: boolean): string {
  if (!sensitive) {
    if (typeof value === 'string' && !holdsCardLikeRun(value)) {
      const shown = value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}...` : value;
      return `Value '${shown}' is invalid.`;
    }
    if (
      (typeof value === 'number' || typeof value === 'boolean') &&
      !holdsCardLikeRun(String(value))
    ) {
      return `Value ${String(value)} is invalid.`;
    }
  }
  return 'Value is invalid.';
}

export function invalidValue(value: unknown, sensitive: boolean, reason: string): string {
  return `${valuePrefix(value, sensitive)} ${reason}`;
}

export function missingField(path: string, condition: string): string {
  return `Field '${path}' is required${condition}`;
}

export function unknownField(path: string, apiOperation: string): string {
  return `Field '${path}' is not part of the ${apiOperation} request`;
}

/** Last line of defence for explanations: computed totals or member names may hold digit runs too. */
export function redactExplanation(text: string): string {
  return redactCardLikeRuns(text);
}

/** Field paths are echoed as sent except digit runs in merchant-chosen names, masked with 'x'. */
export function redactPath(path: string): string {
  return redactCardLikeRuns(path, (run) => 'x'.repeat(run.length));
}
