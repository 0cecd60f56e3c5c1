import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, eventStoreOf } from '@gateway/config';
import { createEventStore } from '@gateway/event-store';
import {
  DELIVERY_STATUSES,
  DeliveryReadModel,
  type DeliveryLog,
  type DeliveryStatus,
  type DeliverySummary,
  SqliteDeliveryStore,
} from '@gateway/webhooks';

const USAGE = `usage:
  webhooks list [--merchant <id>] [--status PENDING|DELIVERED|DEAD_LETTERED] [--limit <n>] [--before <cursor>]
  webhooks show <deliveryId>
  webhooks redeliver <deliveryId>
  webhooks redeliver --merchant <id> --dead-lettered
options: --db <file>   the delivery store (default: GATEWAY_WEBHOOK_DB, else GATEWAY_DATA_DIR/webhooks.db)
With GATEWAY_WEBHOOK_STORE=event-store it reads the partition schedules in KurrentDB
(GATEWAY_EVENT_STORE=kurrentdb, KURRENTDB_CONNECTION_STRING) instead of a file.`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** The delivery store the gateway (embedded) or the standalone dispatcher writes. */
export function defaultDeliveryDb(env = process.env, cwd = process.cwd()): string {
  const file = env.GATEWAY_WEBHOOK_DB || join(env.GATEWAY_DATA_DIR || 'data', 'webhooks.db');
  return isAbsolute(file) ? file : resolve(cwd, file);
}

function parseArgs(args: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--dead-lettered') flags.set('dead-lettered', 'true');
    else if (arg.startsWith('--')) flags.set(arg.slice(2), args[++i] ?? '');
    else positional.push(arg);
  }
  return { positional, flags };
}

const line = (d: DeliverySummary) =>
  [
    d.id,
    d.status,
    d.attempts,
    d.merchantId,
    d.orderId,
    d.transactionId,
    d.lastStatusCode ?? d.lastError ?? '-',
    d.url,
  ].join('\t');

/**
 * Operators' view of the delivery log: list deliveries, show one with its attempts, redeliver one
 * or every dead-lettered delivery of a merchant. It writes the store the dispatcher reads; the
 * dispatcher picks redeliveries up within GATEWAY_WEBHOOK_POLL. Returns the exit code.
 */
export async function runWebhooksCli(
  args: readonly string[],
  io: CliOutput,
  env = process.env,
): Promise<number> {
  const { positional, flags } = parseArgs(args);
  const [command, id] = positional;
  const clustered = env.GATEWAY_WEBHOOK_STORE === 'event-store';
  const db = flags.get('db') || defaultDeliveryDb(env);
  const status = flags.get('status');
  const limit = Number(flags.get('limit') ?? 20);
  const problem = !['list', 'show', 'redeliver'].includes(command)
    ? 'unknown command'
    : status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)
      ? `--status must be one of ${DELIVERY_STATUSES.join(', ')}`
      : !Number.isInteger(limit) || limit < 1 || limit > 1000
        ? '--limit must be a whole number from 1 to 1000'
        : command === 'show' && !id
          ? 'show needs a delivery id'
          : command === 'redeliver' && !id && !(flags.has('merchant') && flags.has('dead-lettered'))
            ? 'redeliver needs a delivery id, or --merchant <id> --dead-lettered'
            : !clustered && !existsSync(db)
              ? `no delivery store at ${db}`
              : undefined;
  if (problem) {
    io.err(`${problem}\n${USAGE}`);
    return 2;
  }
  const store = clustered ? await partitionSchedules(env) : new SqliteDeliveryStore(db);
  try {
    if (command === 'list') {
      const before = flags.get('before');
      const page = store.list({
        merchantId: flags.get('merchant'),
        status: status as DeliveryStatus | undefined,
        limit,
        ...(before ? { before: Number(before) } : {}),
      });
      io.out(
        ['id', 'status', 'attempts', 'merchant', 'order', 'transaction', 'last', 'url'].join('\t'),
      );
      page.deliveries.forEach((d) => io.out(line(d)));
      if (page.next !== undefined) io.out(`more: --before ${page.next}`);
      return 0;
    }
    if (command === 'show') {
      const found = store.get(id);
      if (!found) return notFound(io, id);
      io.out(JSON.stringify(found, null, 2));
      return 0;
    }
    if (id) {
      const redelivered = await store.redeliver(id, Date.now());
      if (!redelivered) return notFound(io, id);
      io.out(`redelivering ${id} (attempt ${redelivered.attempts + 1} next)`);
      return 0;
    }
    const count = await store.redeliverDeadLettered(flags.get('merchant')!, Date.now());
    io.out(`redelivering ${count} dead-lettered deliveries of ${flags.get('merchant')}`);
    return 0;
  } finally {
    await store.close();
  }
}

/** The delivery log of every partition schedule in the event store, caught up. */
async function partitionSchedules(env: NodeJS.ProcessEnv): Promise<DeliveryLog> {
  const problems: string[] = [];
  const selection = eventStoreOf(env, problems);
  if (selection.kind !== 'kurrentdb')
    problems.push('GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_EVENT_STORE=kurrentdb');
  if (problems.length) throw new ConfigError(problems);
  const events = await createEventStore(
    selection as Extract<typeof selection, { kind: 'kurrentdb' }>,
  );
  const log = new DeliveryReadModel(events, true);
  await log.caughtUp();
  return log;
}

function notFound(io: CliOutput, id: string): number {
  io.err(`no delivery ${id}`);
  return 1;
}

if (require.main === module) {
  runWebhooksCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  }).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
