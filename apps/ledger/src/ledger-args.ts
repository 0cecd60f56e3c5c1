/** A usage mistake: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {}

export interface ParsedArgs {
  readonly positional: readonly string[];
  readonly options: ReadonlyMap<string, string>;
  /** Every value of each option, in order, for an option given more than once (--settlement). */
  readonly repeated: ReadonlyMap<string, readonly string[]>;
}

/** `a b --name value --other=value`; every option takes a value and must be one the command knows. */
export function parseArgs(argv: readonly string[], known: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    options.set(name, value);
    repeated.set(name, [...(repeated.get(name) ?? []), value]);
  }
  return { positional, options, repeated };
}

/** An ISO 8601 time with a zone (or a date, meaning its UTC midnight), as toISOString writes it. */
export function parseTime(text: string, what: string): string {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
  const millis = iso.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(millis))
    throw new UsageError(
      `${what} '${text}' is not an ISO 8601 time with a zone, e.g. 2026-11-22T10:00:00Z`,
    );
  return new Date(millis).toISOString();
}

export function oneOf<T extends string>(
  text: string | undefined,
  values: readonly T[],
  what: string,
  fallback: T,
): T {
  if (text === undefined) return fallback;
  if ((values as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${what} must be one of ${values.join(', ')}`);
}
