import { merchantStreamPrefix } from '@gateway/domain';
import type { EventStore, GlobalPosition, StoredEvent } from '@gateway/event-store';
import { toEnvelope } from '@gateway/order-events';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { GatewayLogger } from '../ops/logger';
import { EVENT_STORE, LOGGER } from '../tokens';

/** A comment line this often keeps proxies and clients from timing an idle stream out. */
const HEARTBEAT_MS = 15_000;

/**
 * The live feed: a merchant's order events as server-sent events, read from the event store (not
 * the bus), so it needs no Kafka. `id:` is the global position: a client that reconnects with
 * Last-Event-ID resumes right after it, with no gap and no duplicate (the subscription's start is
 * exclusive). Without Last-Event-ID the feed starts at the present. Streams end when the client
 * goes, and all of them when the gateway shuts down, so shutdown never waits on them.
 */
@Injectable()
export class OrderEventFeed implements OnModuleDestroy {
  private readonly open = new Set<() => Promise<void>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: GatewayLogger,
  ) {}

  /** Streams until the client disconnects or the gateway shuts down. */
  async stream(
    merchantId: string,
    lastEventId: GlobalPosition | undefined,
    response: ServerResponse,
  ): Promise<void> {
    const after = lastEventId ?? (await this.store.headPosition());
    const subscription = this.store.subscribe({
      after,
      streamPrefix: merchantStreamPrefix(merchantId),
    });
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write(
      `retry: 1000\n: order events of ${merchantId} after ${after ?? 'the start'}\n\n`,
    );
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    let ended: Promise<void> | undefined;
    const end = () =>
      (ended ??= (async () => {
        clearInterval(heartbeat);
        await subscription.close();
        if (!response.writableEnded) response.end();
      })());
    const gone = new Promise<void>((resolve) => response.once('close', resolve));
    void gone.then(end);
    this.open.add(end);
    try {
      for await (const event of subscription) {
        if (!response.write(frame(event)))
          await Promise.race([new Promise((resolve) => response.once('drain', resolve)), gone]);
      }
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, merchant: merchantId }, 'feed ended');
    } finally {
      this.open.delete(end);
      await end();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.open].map((end) => end()));
  }
}

function frame(event: StoredEvent): string {
  return `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(toEnvelope(event))}\n\n`;
}
