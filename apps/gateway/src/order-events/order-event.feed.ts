import { ApiError } from '@gateway/contract';
import { merchantStreamPrefix } from '@gateway/domain';
import type { EventStore, GlobalPosition } from '@gateway/event-store';
import type { PublicOrderEvent } from '@gateway/order-events';
import { cardMaskFor } from '@gateway/order-view';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { MerchantRegistry } from '@gateway/merchants';
import type { GatewayLogger } from '@gateway/logging';
import { EVENT_STORE, LOGGER, MERCHANT_REGISTRY } from '../tokens';
import type { FeedAccess } from './feed-access';
import { PublicOrderEvents } from './public-order-events';

/** A comment line this often keeps proxies and clients from timing an idle stream out. */
const HEARTBEAT_MS = 15_000;

/**
 * The live feed: a merchant's order events as server-sent events, read from the event store (not
 * the bus), so it needs no Kafka. Each frame's data is the public order event, its transaction as
 * a GET with the feed's credentials shows it. `id:` is the global position: a client that
 * reconnects with Last-Event-ID resumes right after it, with no gap and no duplicate (the
 * subscription's start is exclusive). Without Last-Event-ID the feed starts at the present.
 * Streams end when the client goes, when their credentials stop being valid (checked at every
 * merchants reload and before every event), and all of them when the gateway shuts down, so
 * shutdown never waits on them.
 */
@Injectable()
export class OrderEventFeed implements OnModuleDestroy {
  private readonly open = new Set<() => Promise<void>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(MERCHANT_REGISTRY) private readonly merchants: Pick<MerchantRegistry, 'onReload'>,
    private readonly events: PublicOrderEvents,
    @Inject(LOGGER) private readonly logger: GatewayLogger,
  ) {}

  /**
   * Where a feed starts: right after Last-Event-ID, or at the present without one. A position
   * beyond the newest event was never sent by any feed: refused, rather than a stream that waits
   * for events that will never come.
   */
  async startAfter(lastEventId: GlobalPosition | undefined): Promise<GlobalPosition | undefined> {
    const head = await this.store.headPosition();
    if (lastEventId === undefined || lastEventId <= (head ?? 0n)) return lastEventId ?? head;
    throw ApiError.invalid(
      `Value '${lastEventId}' is invalid. Last-Event-ID is beyond the newest event (${head ?? 0}): it must be an event id this feed sent, or 0 for the start`,
      'Last-Event-ID',
    );
  }

  /** Streams until the client disconnects, the credentials lapse or the gateway shuts down. */
  async stream(
    access: FeedAccess,
    after: GlobalPosition | undefined,
    response: ServerResponse,
  ): Promise<void> {
    const subscription = this.store.subscribe({
      after,
      streamPrefix: merchantStreamPrefix(access.merchantId),
    });
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write(
      `retry: 1000\n: order events of ${access.merchantId} after ${after ?? 'the start'}\n\n`,
    );
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    let ended: Promise<void> | undefined;
    const end = () =>
      (ended ??= (async () => {
        clearInterval(heartbeat);
        stopWatching();
        await subscription.close();
        if (!response.writableEnded) response.end();
      })());
    const endIfLapsed = () => {
      if (access.current() || ended) return;
      response.write(': credentials no longer valid\n\n');
      void end();
    };
    const stopWatching = this.merchants.onReload(endIfLapsed);
    const gone = new Promise<void>((resolve) => response.once('close', resolve));
    void gone.then(end);
    this.open.add(end);
    try {
      for await (const event of subscription) {
        const merchant = access.current();
        if (!merchant) {
          endIfLapsed();
          break;
        }
        const shown = await this.events.build(event, cardMaskFor(merchant, access.byCertificate));
        if (!response.write(frame(shown)))
          await Promise.race([new Promise((resolve) => response.once('drain', resolve)), gone]);
      }
    } catch (error) {
      this.logger.warn(
        { err: (error as Error).message, merchant: access.merchantId },
        'feed ended',
      );
    } finally {
      this.open.delete(end);
      await end();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.open].map((end) => end()));
  }
}

function frame(event: PublicOrderEvent): string {
  return `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
