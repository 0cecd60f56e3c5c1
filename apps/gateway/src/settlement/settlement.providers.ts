import { openingDatabaseFile } from '@gateway/database-files';
import type { EventStore } from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import type { MerchantRegistry } from '@gateway/merchants';
import {
  Inject,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { join } from 'node:path';
import { AcquirerFactRecorder } from '../acquirer-facts/acquirer-fact.recorder';
import { GatewayClock } from '../clock/gateway-clock';
import type { GatewayConfig } from '../config/gateway.config';
import { EVENT_STORE, LOGGER, MERCHANT_REGISTRY } from '../tokens';
import { BatchCloser } from './batch-closer';
import { SettlementCutoff } from './settlement-cutoff';
import { SettlementIndex } from './settlement-index';

/** Starts the cut-off with the application and stops it before the stores close. */
class SettlementRuns
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  constructor(
    @Inject(SettlementIndex) private readonly index: SettlementIndex,
    @Optional() @Inject(SettlementCutoff) private readonly cutoff?: SettlementCutoff,
  ) {}
  onApplicationBootstrap(): void {
    this.cutoff?.start();
  }
  async beforeApplicationShutdown(): Promise<void> {
    await this.cutoff?.stop();
  }
  onApplicationShutdown(): void {
    this.index.close();
  }
}

/**
 * Settlement (docs/settlement.md): the batch index, the closer, and, where `runsCutoff` (the one
 * process, or the primary of several: not each request process), the cut-off on the clock.
 */
export function settlementProviders(config: GatewayConfig, runsCutoff: boolean): Provider[] {
  return [
    {
      provide: SettlementIndex,
      useFactory: (store: EventStore) => {
        const filename = join(config.dataDir, 'settlement-index.db');
        return openingDatabaseFile(filename, () => new SettlementIndex(filename, store));
      },
      inject: [EVENT_STORE],
    },
    {
      provide: BatchCloser,
      useFactory: (
        store: EventStore,
        recorder: AcquirerFactRecorder,
        index: SettlementIndex,
        clock: GatewayClock,
        logger: GatewayLogger,
      ) => new BatchCloser(store, recorder, index, () => clock.now(), logger),
      inject: [EVENT_STORE, AcquirerFactRecorder, SettlementIndex, GatewayClock, LOGGER],
    },
    {
      provide: SettlementCutoff,
      useFactory: (
        clock: GatewayClock,
        index: SettlementIndex,
        closer: BatchCloser,
        merchants: MerchantRegistry,
        logger: GatewayLogger,
      ) =>
        runsCutoff
          ? new SettlementCutoff(clock, config.acquirerLater, index, closer, merchants, logger)
          : undefined,
      inject: [GatewayClock, SettlementIndex, BatchCloser, MERCHANT_REGISTRY, LOGGER],
    },
    SettlementRuns,
  ];
}
