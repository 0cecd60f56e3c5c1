import type { EventStore } from '@gateway/event-store';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { runningConsumers } from '../config/consumers.config';
import type { GatewayConfig } from '../config/gateway.config';
import type { Consumers } from '../consumers/consumers.host';
import { LoadShedder } from '../protection/load-shedder';
import { CONSUMERS, EVENT_STORE, GATEWAY_CONFIG } from '../tokens';
import { GatewayMetrics } from './gateway-metrics';
import { readiness } from './health';
import { METRICS_TEXT, type MetricsText } from './metrics-text';

/**
 * Operations endpoints, without credentials: they reveal no merchant data, and the gateway listens
 * on loopback unless told otherwise.
 * - /health/live: the process answers.
 * - /health/ready: 200, or 503 when the event store cannot take appends, every new request would
 *   be shed, or shutdown has begun (see readiness), with the consumers this node runs
 *   (GATEWAY_CONSUMERS), the relay's state and the projection's state and lag (neither makes the
 *   gateway unready; a consumer switched off shows `off`).
 * None of them is ever shed under load (protection/shed-load.hook.ts).
 * - /metrics: Prometheus text format, this thread's metrics and the consumers thread's (with
 *   GATEWAY_WORKERS > 1, every process's, summed by the primary: metrics-text.ts).
 */
@Controller()
export class OpsHttpController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly metrics: GatewayMetrics,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'consumers'>,
    @Inject(CONSUMERS) private readonly consumers: Consumers,
    private readonly shedder: LoadShedder,
    @Inject(METRICS_TEXT) private readonly metricsText: MetricsText,
  ) {}

  @Get('health/live')
  live() {
    return { status: 'UP' };
  }

  @Get('health/ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { bus, relay, projections } = await this.consumers.status();
    const { ready, body } = await readiness(this.store, {
      bus,
      draining: this.shedder.isDraining,
      overloaded: this.shedder.isFull,
    });
    void reply.status(ready ? 200 : 503);
    return {
      ...body,
      consumers: runningConsumers(this.config.consumers),
      ...(relay ? { relay } : {}),
      projections,
    };
  }

  @Get('metrics')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply.type(this.metrics.registry.contentType);
    return this.metricsText();
  }
}
