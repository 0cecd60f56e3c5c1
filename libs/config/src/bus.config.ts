export type BusConfig =
  | { readonly kind: 'embedded' }
  | {
      readonly kind: 'kafka';
      /** host:port of each seed broker (KAFKA_BROKERS, comma-separated). */
      readonly brokers: readonly string[];
      readonly topic: string;
      readonly clientId: string;
      /** Consumer group of the gateway's own consumer (the webhook dispatcher). */
      readonly consumerGroup: string;
    };

/** Kafka topic and client names: letters, digits, '.', '_' and '-' (Kafka's own rule for topics). */
const KAFKA_NAME = /^[A-Za-z0-9._-]{1,249}$/;
const BROKER = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;

/** GATEWAY_BUS and KAFKA_* (the standalone webhook dispatcher reads them too). */
export function busConfigOf(env: NodeJS.ProcessEnv, problems: string[]): BusConfig {
  const kind = env.GATEWAY_BUS || 'embedded';
  if (kind === 'embedded') return { kind };
  if (kind !== 'kafka') {
    problems.push(`GATEWAY_BUS='${kind}' must be embedded or kafka`);
    return { kind: 'embedded' };
  }
  const name = (variable: string, fallback: string): string => {
    const value = env[variable] || fallback;
    if (!KAFKA_NAME.test(value))
      problems.push(`${variable}='${value}' must be 1-249 letters, digits, '.', '_' or '-'`);
    return value;
  };
  const raw = env.KAFKA_BROKERS ?? '';
  const brokers = raw
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  if (brokers.length === 0) problems.push('KAFKA_BROKERS is required when GATEWAY_BUS=kafka');
  for (const broker of brokers) {
    const port = Number(broker.slice(broker.lastIndexOf(':') + 1));
    if (!BROKER.test(broker) || port < 1 || port > 65535)
      problems.push(`KAFKA_BROKERS entry '${broker}' must be host:port`);
  }
  return {
    kind,
    brokers,
    topic: name('KAFKA_TOPIC', 'gateway.order-events'),
    clientId: name('KAFKA_CLIENT_ID', 'gateway-ledger'),
    consumerGroup: name('KAFKA_CONSUMER_GROUP', 'gateway-webhook-dispatcher'),
  };
}
