import type { BusConfig } from '@gateway/config';
import type { GatewayWebhooksConfig } from '@gateway/webhooks';

/** The in-process consumers of committed order events a gateway node may run. */
export const CONSUMER_NAMES = ['projector', 'relay', 'dispatcher'] as const;
export type ConsumerName = (typeof CONSUMER_NAMES)[number];

/** Which consumers this node runs (GATEWAY_CONSUMERS). */
export type ConsumerSwitches = Readonly<Record<ConsumerName, boolean>>;

/**
 * GATEWAY_CONSUMERS: a comma-separated list of the consumers this node runs, or `none`. Unset,
 * every one (the dispatcher only while GATEWAY_WEBHOOK_DISPATCHER is embedded). Refused: a name
 * that is no consumer, the dispatcher with an external one, and the dispatcher without the
 * relay on the embedded bus (nothing else would feed it).
 */
export function consumersOf(
  env: NodeJS.ProcessEnv,
  problems: string[],
  bus: BusConfig,
  webhooks: Pick<GatewayWebhooksConfig, 'dispatcher'>,
): ConsumerSwitches {
  const raw = env.GATEWAY_CONSUMERS?.trim();
  const embedded = webhooks.dispatcher === 'embedded';
  if (!raw) return { projector: true, relay: true, dispatcher: embedded };
  const names = raw === 'none' ? [] : raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(CONSUMER_NAMES as readonly string[]).includes(name));
  if (unknown.length)
    problems.push(
      `GATEWAY_CONSUMERS='${raw}' must be none or a comma-separated list of ${CONSUMER_NAMES.join(', ')} (not ${unknown.map((n) => `'${n}'`).join(', ')})`,
    );
  const runs = (name: ConsumerName) => names.includes(name);
  if (runs('dispatcher') && !embedded)
    problems.push(
      `GATEWAY_CONSUMERS='${raw}' lists the dispatcher, but GATEWAY_WEBHOOK_DISPATCHER=external: a standalone dispatcher delivers`,
    );
  if (runs('dispatcher') && !runs('relay') && bus.kind === 'embedded')
    problems.push(
      `GATEWAY_CONSUMERS='${raw}' lists the dispatcher without the relay: on the embedded bus (GATEWAY_BUS) only this node's relay feeds it`,
    );
  return { projector: runs('projector'), relay: runs('relay'), dispatcher: runs('dispatcher') };
}

/** The consumers that run, by name (for /health/ready and the log). */
export function runningConsumers(switches: ConsumerSwitches): ConsumerName[] {
  return CONSUMER_NAMES.filter((name) => switches[name]);
}
