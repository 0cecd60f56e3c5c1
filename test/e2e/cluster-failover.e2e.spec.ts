import { describeWithKafka, readTopic, type RawRecord } from '../support/kafka-mock-cluster';
import { startGatewayCluster, type GatewayCluster } from '../support/gateway-cluster';
import { startClusterLoad } from '../support/cluster-load';
import { merchantClient } from '../support/gateway-process';
import { until } from '../support/until';

const NODES = 3;

/** The node's relay role as /health/ready reports it. */
async function relayRole(baseUrl: string): Promise<string | undefined> {
  const ready: any = await (await fetch(`${baseUrl}/health/ready`)).json();
  return ready.relay?.role;
}

/**
 * Three nodes under load through the balancer; the node publishing to Kafka is killed (-9) in
 * the middle. The merchants' clients retry what the balancer could not complete, as the API
 * allows; nothing a 201 answered may be lost or doubled, on any node or on Kafka.
 */
describeWithKafka()('a three-node cluster losing the node that runs the relay', () => {
  let cluster: GatewayCluster;
  beforeAll(async () => {
    cluster = await startGatewayCluster(NODES, { GATEWAY_RELAY_LEASE: '2' });
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('fails over: every 201 retrievable from every live node, every event on Kafka in order', async () => {
    let leader = -1;
    await until(
      async () => {
        const roles = await Promise.all(cluster.nodes.map((node) => relayRole(node.baseUrl)));
        leader = roles.indexOf('leader');
        return leader >= 0 && roles.filter((role) => role === 'leader').length === 1;
      },
      'one node leads the relay',
      20_000,
    );

    const prefix = `failover-${Date.now()}`;
    const load = startClusterLoad(cluster.api, prefix);
    await until(() => load.created.size >= 40, '40 requests answered 201', 30_000);
    cluster.kill(leader);
    const atKill = load.created.size;
    await until(() => load.created.size >= atKill + 40, '40 more after the kill', 30_000);
    await load.stop();
    expect(load.refused).toEqual([]);

    const alive = cluster.nodes.filter((_, i) => i !== leader);
    await until(
      async () => {
        const roles = await Promise.all(alive.map((node) => relayRole(node.baseUrl)));
        return roles.filter((role) => role === 'leader').length === 1;
      },
      'another node leads the relay',
      20_000,
    );

    for (const [path, created] of load.created)
      for (const node of alive) {
        const shown = await merchantClient(node).get(path);
        expect(shown.status).toBe(200);
        expect(shown.body.transaction.id).toBe(created.body.transaction.id);
        expect(shown.body.result).toBe(created.body.result);
      }

    // Every event the store holds for these orders, against what reached the topic.
    const logged = new Map<string, { stream: string; revision: number }>();
    for (let i = 0; i < cluster.standin.log.length; i++) {
      const event = cluster.standin.log.at(i)!;
      if (event.streamId.includes(`:${prefix}-`))
        logged.set(event.id, { stream: event.streamId, revision: event.revision });
    }
    expect(logged.size).toBeGreaterThanOrEqual(load.created.size);
    const seen = new Set<string>();
    const records = await readTopic(cluster.kafka.brokers, cluster.topic, (read) => {
      const id = read[read.length - 1].headers['event-id'];
      if (logged.has(id)) seen.add(id);
      return seen.size === logged.size;
    });
    expectInOrderPerOrder(records.filter((record) => logged.has(record.headers['event-id'])));
  }, 180_000);
});

/** Duplicates aside (each the same record byte for byte), one order's events come in revision order. */
function expectInOrderPerOrder(records: RawRecord[]) {
  const first = new Map<string, RawRecord>();
  const next = new Map<string, number>();
  for (const record of records) {
    const id = record.headers['event-id'];
    const earlier = first.get(id);
    if (earlier) {
      expect(record.value).toBe(earlier.value);
      continue;
    }
    first.set(id, record);
    const revision = Number(record.headers['stream-revision']);
    expect(revision).toBe(next.get(record.key) ?? 0);
    next.set(record.key, revision + 1);
  }
}
