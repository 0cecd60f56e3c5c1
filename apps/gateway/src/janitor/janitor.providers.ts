import { SimulatedAcquirerLater } from '@gateway/acquirer';
import { openingDatabaseFile } from '@gateway/database-files';
import { EventStoreLease, type EventStore } from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type Provider,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AcquirerFactRecorder } from '../acquirer-facts/acquirer-fact.recorder';
import { GatewayClock } from '../clock/gateway-clock';
import type { GatewayConfig } from '../config/gateway.config';
import { EVENT_STORE, LOGGER } from '../tokens';
import { Janitor } from './janitor';
import { JanitorLoop } from './janitor-loop';
import { JanitorSchedule } from './janitor-schedule';
import { observeJanitor } from './janitor.metrics';
import { GatewayMetrics } from '../ops/gateway-metrics';

/** Starts the janitor with the application; stops it before the stores close. */
@Injectable()
class JanitorLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(JanitorLoop) private readonly loop: JanitorLoop,
    @Inject(JanitorSchedule) private readonly schedule: JanitorSchedule,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    this.schedule.close();
  }
}

/**
 * The janitor (docs/janitor.md), in the process that owns the event store's writer (the only
 * process, or the primary of GATEWAY_WORKERS): its schedule in janitor.db, and on KurrentDB a
 * lease so that one node runs it.
 */
export function janitorProviders(config: GatewayConfig): Provider[] {
  const settings = config.acquirerLater;
  const filename = join(config.dataDir, 'janitor.db');
  return [
    {
      provide: JanitorSchedule,
      useFactory: async (metrics: GatewayMetrics, clock: GatewayClock) => {
        const schedule = await openingDatabaseFile(filename, () => new JanitorSchedule(filename));
        observeJanitor(metrics.registry, schedule, () => clock.now());
        return schedule;
      },
      inject: [GatewayMetrics, GatewayClock],
    },
    {
      provide: JanitorLoop,
      useFactory: (
        store: EventStore,
        schedule: JanitorSchedule,
        recorder: AcquirerFactRecorder,
        clock: GatewayClock,
        logger: GatewayLogger,
      ) => {
        const log = logger.child({ component: 'janitor' });
        const janitor = new Janitor({
          events: store,
          schedule,
          later: new SimulatedAcquirerLater(settings),
          recorder,
          now: () => clock.now(),
          inquiryScheduleMs: settings.inquiryScheduleMs,
          log,
        });
        const durationMs = config.relayLeaseSeconds * 1000;
        const cluster =
          config.eventStore.kind === 'kurrentdb'
            ? {
                lease: new EventStoreLease(store, {
                  name: 'janitor-lease',
                  holderId: `${hostname()}:${process.pid}:${randomUUID()}`,
                  durationMs,
                }),
                stepMs: durationMs / 3,
              }
            : undefined;
        return new JanitorLoop(janitor, clock, settings.tickMs, log, cluster);
      },
      inject: [EVENT_STORE, JanitorSchedule, AcquirerFactRecorder, GatewayClock, LOGGER],
    },
    JanitorLifecycle,
  ];
}
