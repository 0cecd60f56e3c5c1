import {
  decide,
  evolve,
  initialState,
  orderStreamId,
  type Order,
  type OrderCommand,
  type OrderEvent,
} from '@gateway/domain';
import { InMemoryEventStore, type EventStore } from '@gateway/event-store';
import type {
  OrderEventConsumer,
  OrderEventHandler,
  PublicOrderEvent,
} from '@gateway/order-events';
import { buildPublicOrderEvent } from '@gateway/order-view';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDeliveryStore } from '../../src/delivery/sqlite-delivery.store';
import type { SendResult, WebhookSender } from '../../src/sending/webhook-sender';
import { WebhookDispatcher } from '../../src/webhook-dispatcher';
import type { WebhookConfig } from '../../src/webhook.config';

export const secretOf = (merchantId: string) => `secret-of-${merchantId}-0123456789`;

/** A consumer the test feeds by hand, as the bus would. */
export class HandFedConsumer implements OrderEventConsumer {
  private handle?: OrderEventHandler;
  async start(handle: OrderEventHandler): Promise<void> {
    this.handle = handle;
  }
  /** `partition`: the Kafka partition the event would come from. */
  feed(envelope: PublicOrderEvent, partition?: number): Promise<void> {
    return this.handle!(envelope, partition === undefined ? undefined : { partition });
  }
  async close(): Promise<void> {
    this.handle = undefined;
  }
}

export interface SentRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** When it was sent (epoch ms). */
  readonly at: number;
}

/** Answers by URL: a status, or 'hang' (never answers until the sender is closed). */
export class ScriptedSender implements WebhookSender {
  readonly sent: SentRequest[] = [];
  private readonly hanging = new Set<() => void>();
  constructor(public answer: (url: string, nth: number) => number | 'hang' = () => 200) {}

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.sent.push({ url, headers, body, at: Date.now() });
    const status = this.answer(url, this.sent.filter((s) => s.url === url).length);
    if (status !== 'hang') return Promise.resolve({ statusCode: status, latencyMs: 1 });
    return new Promise((resolve) => {
      const release = () => resolve({ latencyMs: 1, error: 'closed' });
      this.hanging.add(release);
    });
  }
  to(url: string): SentRequest[] {
    return this.sent.filter((s) => s.url === url);
  }
  close(): void {
    this.hanging.forEach((release) => release());
  }
}

/** Every merchant enabled, with its secretOf secret. */
export const testMerchants = {
  find: (id: string) => ({
    id,
    enabled: true,
    notificationSecret: secretOf(id),
    passwordHash: '',
    test: true,
    permissions: [],
    cardMask: '6.4' as const,
  }),
};

export const testConfig = (overrides: Partial<WebhookConfig> = {}): WebhookConfig => ({
  retryDelaysMs: [0, 30, 30],
  timeoutMs: 1000,
  concurrency: 8,
  merchantConcurrency: 2,
  allowCidrs: [],
  pollMs: 50,
  ...overrides,
});

/**
 * Appends what a command decides to the order's stream; returns the new events as the relay
 * publishes them (public events, as a GET under Basic authentication shows them).
 */
export async function record(
  store: EventStore,
  command: OrderCommand,
): Promise<PublicOrderEvent[]> {
  const streamId = orderStreamId(command.merchantId, command.orderId);
  const before = await store.readStream(streamId);
  const state = before.reduce((s, e) => evolve(s, e as unknown as OrderEvent), initialState());
  const events = decide(command, state);
  await store.appendToStream(
    streamId,
    events.map((e) => ({
      eventId: randomUUID(),
      type: e.type,
      data: e.data,
      metadata: { apiVersion: 100, apiOperation: command.type.toUpperCase() },
    })),
    before.length ? before.length - 1 : 'no_stream',
  );
  let order = state;
  return (await store.readStream(streamId)).slice(before.length).map((stored) => {
    order = evolve(order, stored as unknown as OrderEvent);
    return buildPublicOrderEvent(order as Order, stored, { cardMask: '6.4' });
  });
}

export interface Harness {
  readonly events: EventStore;
  readonly deliveries: SqliteDeliveryStore;
  readonly sender: ScriptedSender;
  readonly consumer: HandFedConsumer;
  readonly dispatcher: WebhookDispatcher;
  /** Feeds every envelope to the dispatcher, as the bus would. */
  feed(envelopes: readonly PublicOrderEvent[]): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    config?: Partial<WebhookConfig>;
    file?: string;
    events?: EventStore;
    sender?: ScriptedSender;
  } = {},
): Promise<Harness> {
  const events = options.events ?? new InMemoryEventStore();
  const file = options.file ?? join(mkdtempSync(join(tmpdir(), 'webhooks-')), 'webhooks.db');
  const deliveries = new SqliteDeliveryStore(file);
  const sender = options.sender ?? new ScriptedSender();
  const consumer = new HandFedConsumer();
  const dispatcher = new WebhookDispatcher({
    config: testConfig(options.config),
    deliveries,
    merchants: testMerchants,
    consumer,
    sender,
  });
  await dispatcher.start();
  return {
    events,
    deliveries,
    sender,
    consumer,
    dispatcher,
    feed: async (envelopes) => {
      for (const envelope of envelopes) await consumer.feed(envelope);
    },
    close: async () => {
      await dispatcher.close();
      await deliveries.close();
    },
  };
}

/** Polls until `check` returns something truthy. */
export async function eventually<T>(
  check: () => T | undefined | false,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 10));
  }
}
