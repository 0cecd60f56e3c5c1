import type { EventStore } from '@gateway/event-store';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { STORE_UNWRITABLE } from '../http/api-exception.filter';
import { parseApiVersion } from '../http/path-params';
import { hasWriterStats } from '../ops/gateway-metrics';
import { EVENT_STORE } from '../tokens';
import { gatewayVersion } from './gateway-version';

/**
 * Check Gateway: `GET /api/rest/version/{version}/information`, without credentials (behaviour
 * notes, "What real merchant clients need"). Merchant clients call it before they pay, so it
 * answers OPERATING only while this node can record a payment as far as it knows without asking
 * anyone: when the embedded event store cannot write (full disk, read-only file), it answers what
 * a payment would get, 503 SERVER_BUSY with Retry-After. The API knows no status but OPERATING, so
 * no other value is invented. A remote store (KurrentDB) is not probed here: an unauthenticated
 * request must not cost a round trip to the cluster; /health/ready does that for operators.
 */
@Controller('api/rest/version/:version/information')
export class CheckGatewayHttpController {
  private readonly version = gatewayVersion();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Get()
  check(@Param('version') version: string | undefined) {
    parseApiVersion(version);
    if (hasWriterStats(this.store) && this.store.stats().state !== 'open') throw STORE_UNWRITABLE;
    return { status: 'OPERATING', gatewayVersion: this.version };
  }
}
