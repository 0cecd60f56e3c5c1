import { describeWithKafka } from '../support/kafka-mock-cluster';
import { relayRole, startGatewayCluster, type GatewayCluster } from '../support/gateway-cluster';
import {
  committedOrderEvents,
  expectAtLeastOnce,
  readAllCommitted,
} from '../support/order-event-records';
import { startClusterLoad } from '../support/cluster-load';
import { startDispatcher, type RunningDispatcher } from '../support/dispatcher-process';
import { makeDataDir, merchantClient } from '../support/gateway-process';
import { until } from '../support/until';
import {
  startWebhookReceiver,
  webhookEnv,
  type ReceivedNotification,
  type WebhookReceiver,
} from '../support/webhook-receiver';

const NODES = 3;

/** The Kafka partitions a dispatcher sends the deliveries of (its /health). */
async function partitionsOf(dispatcher: RunningDispatcher): Promise<number[]> {
  return ((await (await fetch(`${dispatcher.opsUrl}/health`)).json()) as { partitions: number[] })
    .partitions;
}

const NOTIFIED = '/cluster/ok';

/**
 * Three nodes under load through the balancer, two webhook dispatchers in one consumer group
 * (schedules in the event store). The node publishing to Kafka and one dispatcher are killed
 * (-9) in the middle. The merchants' clients retry what the balancer could not complete, as the
 * API allows; nothing a 201 answered may be lost or doubled, on any node, on Kafka, or at the
 * merchant's notification endpoint (once de-duplicated by notification id).
 */
describeWithKafka()(
  'a three-node cluster losing the node running the relay, and a dispatcher',
  () => {
    let cluster: GatewayCluster;
    let receiver: WebhookReceiver;
    const dispatchers: RunningDispatcher[] = [];
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      cluster = await startGatewayCluster(NODES, {
        ...webhookEnv(receiver),
        GATEWAY_RELAY_LEASE: '3',
        GATEWAY_WEBHOOK_DISPATCHER: 'external',
        GATEWAY_WEBHOOK_STORE: 'event-store',
      });
      // One at a time, each once the group settled (the mock cluster refuses joins mid-rebalance).
      for (let i = 0; i < 2; i++) {
        const env = { ...cluster.env, KAFKA_SESSION_TIMEOUT: '6s' };
        dispatchers.push(await startDispatcher(await makeDataDir(), env));
        await until(
          async () => (await Promise.all(dispatchers.map(partitionsOf))).every((p) => p.length > 0),
          'every dispatcher holds partitions',
          40_000,
        );
      }
    }, 120_000);
    afterAll(async () => {
      for (const dispatcher of dispatchers) await dispatcher.stop('SIGKILL');
      await cluster?.stop();
      await receiver?.close();
    });

    it('fails over: every 201 retrievable from every live node, every event on Kafka in order', async () => {
      let leader = -1;
      await until(
        async () => {
          const roles = await Promise.all(
            cluster.nodes.map(async (node) => (await relayRole(node)).role),
          );
          leader = roles.indexOf('leader');
          return leader >= 0 && roles.filter((role) => role === 'leader').length === 1;
        },
        'one node leads the relay',
        20_000,
      );

      const prefix = `failover-${Date.now()}`;
      const load = startClusterLoad(cluster.api, prefix, 4, {
        notificationUrl: `${receiver.url}${NOTIFIED}`,
      });
      await until(() => load.created.size >= 40, '40 requests answered 201', 30_000);
      cluster.kill(leader);
      dispatchers[0].child.kill('SIGKILL');
      const atKill = load.created.size;
      await until(() => load.created.size >= atKill + 40, '40 more after the kill', 30_000);
      await load.stop();
      expect(load.refused).toEqual([]);

      const alive = cluster.nodes.filter((_, i) => i !== leader);
      await until(
        async () => {
          const roles = await Promise.all(alive.map(async (node) => (await relayRole(node)).role));
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
      const committed = committedOrderEvents(cluster.standin, prefix);
      expect(committed.length).toBeGreaterThanOrEqual(load.created.size);
      const ids = new Set(committed.map((event) => event.eventId));
      const records = await readAllCommitted(cluster.kafka, cluster.topic, committed);
      expectAtLeastOnce(
        records.filter((record) => ids.has(record.headers['event-id'])),
        committed,
      );

      // Every transaction answered 201 notified, each notification id for one transaction only.
      const wanted = [...load.created.values()].map(
        (answer) => `${answer.body.order.id}/${answer.body.transaction.id}`,
      );
      await until(
        () => {
          const notified = new Set(receiver.received(NOTIFIED).map(transactionOf));
          return wanted.every((transaction) => notified.has(transaction));
        },
        'every transaction notified',
        60_000,
      );
      const byId = new Map<string, string>();
      for (const notification of receiver.received(NOTIFIED)) {
        const id = notification.headers['x-notification-id'] as string;
        expect(byId.get(id) ?? transactionOf(notification)).toBe(transactionOf(notification));
        byId.set(id, transactionOf(notification));
      }
      expect(new Set(byId.values()).size).toBe(byId.size);
    }, 240_000);
  },
);

/** `{order id}/{transaction id}` of a notification's body. */
function transactionOf(notification: ReceivedNotification): string {
  const body = JSON.parse(notification.body);
  return `${body.order.id}/${body.transaction.id}`;
}
