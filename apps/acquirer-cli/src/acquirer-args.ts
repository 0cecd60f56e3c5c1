/** A usage mistake: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {}

/** What one run of the CLI asks the gateway for, checked as far as the command line can be. */
export type AcquirerCommand =
  | {
      readonly command: 'dispute' | 'chargeback';
      readonly merchantId: string;
      readonly orderId: string;
      /** Decimal text as typed; absent: what can still be disputed or charged back. */
      readonly amount?: string;
    }
  | {
      readonly command: 'settle';
      readonly merchantId: string;
      readonly date: string;
      /** `-` for standard output. */
      readonly out: string;
    }
  | { readonly command: 'help' };

const OPTIONS = {
  dispute: { required: ['merchant', 'order'], optional: ['amount'] },
  chargeback: { required: ['merchant', 'order'], optional: ['amount'] },
  settle: { required: ['merchant', 'date', 'out'], optional: [] },
} as const;

/** Flags every command takes: where the gateway is and which CA vouches for it. */
export const CONNECTION_OPTIONS = ['gateway', 'ca'] as const;

/** `command --name value --name=value …`; --help anywhere asks for the usage. */
export function parseCommand(argv: readonly string[]): {
  readonly command: AcquirerCommand;
  readonly connection: ReadonlyMap<string, string>;
} {
  if (argv.some((arg) => arg === '--help' || arg === '-h' || arg === 'help'))
    return { command: { command: 'help' }, connection: new Map() };
  if (argv.length === 0) throw new UsageError('no command');
  const [name, ...rest] = argv;
  if (!(name in OPTIONS)) throw new UsageError(`unknown command '${name}'`);
  const spec = OPTIONS[name as keyof typeof OPTIONS];
  const known: readonly string[] = [...spec.required, ...spec.optional, ...CONNECTION_OPTIONS];
  const values = flagsOf(rest, known);
  const missing = spec.required.find((flag) => !values.get(flag));
  if (missing) throw new UsageError(`${name} needs --${missing}`);
  const connection = new Map(
    [...values].filter(([flag]) => (CONNECTION_OPTIONS as readonly string[]).includes(flag)),
  );
  const merchantId = values.get('merchant')!;
  if (name === 'settle') {
    const date = values.get('date')!;
    if (!isCalendarDate(date)) throw new UsageError(`--date '${date}' is not a date YYYY-MM-DD`);
    return {
      command: { command: 'settle', merchantId, date, out: values.get('out')! },
      connection,
    };
  }
  const amount = values.get('amount');
  if (amount !== undefined && !/^\d{1,13}(\.\d{1,3})?$/.test(amount))
    throw new UsageError(`--amount '${amount}' is not a decimal amount such as 12.50`);
  const command = name as 'dispute' | 'chargeback';
  const orderId = values.get('order')!;
  return {
    command: { command, merchantId, orderId, ...(amount !== undefined ? { amount } : {}) },
    connection,
  };
}

function flagsOf(args: readonly string[], known: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const flag = arg.slice(2, eq < 0 ? undefined : eq);
    if (!known.includes(flag)) throw new UsageError(`unknown option --${flag}`);
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') throw new UsageError(`--${flag} needs a value`);
    if (values.has(flag)) throw new UsageError(`--${flag} is given twice`);
    values.set(flag, value);
  }
  return values;
}

/** YYYY-MM-DD naming a day that exists (no 2026-02-30). */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
}
