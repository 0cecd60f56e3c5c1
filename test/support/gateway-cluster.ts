import { startKafkaMockCluster, type KafkaMockCluster } from './kafka-mock-cluster';
import { makeKeysFile } from './keys-file';
import { startKurrentDbStandin, type KurrentDbStandin } from './kurrentdb-standin/standin-server';
import { merchantClient, startGateway, type RunningGateway } from './gateway-process';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

/**
 * A gateway cluster as an operator runs one: N nodes on one KurrentDB (the protocol stand-in)
 * and one Kafka (librdkafka's mock cluster), given the same keys file, each with a data directory
 * of its own, behind a round-robin balancer that is also their public address (the payer's
 * browser comes back through it, to whichever node is next).
 */
export interface GatewayCluster {
  readonly nodes: RunningGateway[];
  readonly proxy: RoundRobinProxy;
  readonly standin: KurrentDbStandin;
  readonly kafka: KafkaMockCluster;
  readonly topic: string;
  /** The environment every node was started with (to start a replacement). */
  readonly env: Record<string, string>;
  /** A merchant's client through the balancer. */
  readonly api: ReturnType<typeof merchantClient>;
  /** A merchant's client pinned to one node. */
  on(node: number): ReturnType<typeof merchantClient>;
  /** kill -9 one node; the balancer skips it from then on. */
  kill(node: number): void;
  stop(): Promise<void>;
}

export async function startGatewayCluster(
  size = 3,
  env: Record<string, string> = {},
): Promise<GatewayCluster> {
  const topic = `cluster-${Date.now()}`;
  const [standin, kafka, proxy] = await Promise.all([
    startKurrentDbStandin(),
    startKafkaMockCluster(topic),
    startRoundRobinProxy(),
  ]);
  const nodeEnv = {
    GATEWAY_EVENT_STORE: 'kurrentdb',
    KURRENTDB_CONNECTION_STRING: standin.connectionString,
    GATEWAY_BUS: 'kafka',
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_TOPIC: topic,
    GATEWAY_PUBLIC_URL: proxy.url,
    ...makeKeysFile().env,
    ...env,
  };
  const nodes = await Promise.all(
    Array.from({ length: size }, () => startGateway(undefined, nodeEnv)),
  );
  proxy.nodes = nodes.map((node) => node.baseUrl);
  return {
    nodes,
    proxy,
    standin,
    kafka,
    topic,
    env: nodeEnv,
    api: merchantClient({ baseUrl: proxy.url }),
    on: (node) => merchantClient(nodes[node]),
    kill(node) {
      nodes[node].child.kill('SIGKILL');
      proxy.nodes = proxy.nodes.filter((url) => url !== nodes[node].baseUrl);
    },
    async stop() {
      await Promise.allSettled(nodes.map((node) => node.stop()));
      await Promise.allSettled([proxy.stop(), kafka.stop(), standin.stop()]);
    },
  };
}

/** The node's relay role and lease term as /health/ready reports them (on KurrentDB). */
export async function relayRole(
  node: Pick<RunningGateway, 'baseUrl'>,
): Promise<{ role: string; term: number }> {
  const ready = (await (await fetch(`${node.baseUrl}/health/ready`)).json()) as {
    relay: { role: string; term: number };
  };
  return ready.relay;
}
