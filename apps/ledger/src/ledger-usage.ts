/** The ledger CLI's commands: what each takes and says about itself. */

const COMMON = `[--data-dir DIR]   (default: GATEWAY_DATA_DIR, else ./data)
  [--event-store sqlite|kurrentdb] [--kurrentdb CONNECTION-STRING]
  (default: GATEWAY_EVENT_STORE, KURRENTDB_CONNECTION_STRING, as the gateway)`;

interface Command {
  readonly options: readonly string[];
  readonly usage: string;
  /** Reads no data directory or store (an auditor's machine). */
  readonly offline?: true;
}

/** Each command: the options it takes and its usage, as `ledger <command> --help` prints it. */
export const COMMANDS: Record<string, Command> = {
  history: {
    options: ['format'],
    usage: `history <merchant> <order> [--format table|jsonl]   every event of an order`,
  },
  'as-of': {
    options: [],
    usage: `as-of <merchant> <order> <time>                     the order as it stood at that time`,
  },
  export: {
    options: ['merchant', 'from', 'to', 'format', 'out'],
    usage: `export [--merchant M] [--from T1] [--to T2] [--format csv|jsonl|audit] [--out FILE]
                                                      every transaction recorded in [T1, T2);
                                                      audit: every event with its chain links and
                                                      signed checkpoints, for verify-export`,
  },
  replay: {
    options: ['out', 'threads'],
    usage: `replay [--out FILE] [--threads N]                   rebuild the read model (in N threads, default
                                                      the cores, at most 4), compare with the live one`,
  },
  unknown: {
    options: ['merchant'],
    usage: `unknown [--merchant M]                              money whose outcome is still UNKNOWN, per
                                                      currency (folded from the log)`,
  },
  daily: {
    options: ['from', 'to', 'merchant', 'format'],
    usage: `daily --from D1 --to D2 [--merchant M] [--format table|csv|jsonl]
                                                      per day (UTC), merchant and currency:
                                                      authorised, captured, refunded, charged back,
                                                      settled, fees, net (settled less fees)`,
  },
  reconcile: {
    options: ['settlement', 'format'],
    usage: `reconcile --settlement FILE [--settlement FILE…] [--format table|jsonl]
                                                      the acquirer's settlement files against the
                                                      gateway's events: every exception by kind
                                                      (exit 1), the matched totals per currency`,
  },
  verify: {
    options: ['anchor', 'ledger-db'],
    usage: `verify [--anchor POSITION:HASH] [--ledger-db FILE]  check the tamper-evidence hash chain
                                                      (--anchor: embedded store only), the kept
                                                      signed checkpoints, and that the postings
                                                      follow from the events`,
  },
  balances: {
    options: ['merchant', 'as-of', 'ledger-db'],
    usage: `balances [--merchant M] [--as-of T] [--ledger-db FILE]
                                                      every account's balance, now or as of T`,
  },
  'trial-balance': {
    options: ['as-of', 'ledger-db'],
    usage: `trial-balance [--as-of T] [--ledger-db FILE]        debits equal credits per currency, or the
                                                      first entry that breaks it`,
  },
  checkpoint: {
    options: [],
    usage: `checkpoint                                          check the chain, sign the log's head with
                                                      the ledger key, keep it (embedded store only)`,
  },
  'public-key': {
    options: [],
    usage: `public-key                                          the ledger key's public half, for auditors`,
  },
  'verify-export': {
    options: ['public-key'],
    offline: true,
    usage: `verify-export <file> --public-key K                 check an audit export offline (no data
                                                      directory): chain, content, signatures`,
  },
};

const POSTINGS_DB = `(--ledger-db FILE: the postings store, default DATA-DIR/ledger.db, caught up
   with the events first)`;

const EXIT_STATUS = 'exit status: 0 fine, 1 not found / differences / tampered, 2 usage';

/** The whole usage, or one command's (`ledger <command> --help`, or after its usage mistake). */
export function usageOf(command?: string): string {
  const one = command === undefined ? undefined : COMMANDS[command];
  if (one) {
    const store = one.offline ? [] : [`  ${COMMON}`];
    const postings = one.options.includes('ledger-db') ? [`  ${POSTINGS_DB}`] : [];
    return [`usage: ledger ${one.usage}`, ...store, ...postings, EXIT_STATUS].join('\n');
  }
  const all = Object.values(COMMANDS).map((c) => `  ${c.usage}`);
  return [`usage: ledger <command> ${COMMON}`, ...all, `  ${POSTINGS_DB}`, EXIT_STATUS].join('\n');
}
