import type { Provider } from '@nestjs/common';
import { AuthLockout } from '@gateway/merchants';
import type { TrafficLimits } from '../config/traffic-limits';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { LoadShedder } from './load-shedder';
import { MerchantAdmission } from './merchant-admission';
import { MerchantRateLimiter } from './merchant-rate-limiter';
import { RequestAdmission } from './request-admission';

/** The abuse and load defences, configured from the environment's traffic limits. */
export function protectionProviders(limits: TrafficLimits): Provider[] {
  return [
    {
      provide: LoadShedder,
      useFactory: (metrics: GatewayMetrics) => {
        const shedder = new LoadShedder(limits.maxInFlight, limits.maxEventLoopDelayMs);
        metrics.observeInFlight(() => shedder.requestsInFlight);
        return shedder;
      },
      inject: [GatewayMetrics],
    },
    {
      provide: RequestAdmission,
      useFactory: (shedder: LoadShedder) => new RequestAdmission(shedder, limits),
      inject: [LoadShedder],
    },
    MerchantAdmission,
    {
      provide: AuthLockout,
      useValue: new AuthLockout({
        maxFailures: limits.authMaxFailures,
        lockoutSeconds: limits.authLockoutSeconds,
        trackedKeys: limits.authTrackedKeys,
      }),
    },
    {
      provide: MerchantRateLimiter,
      useValue: new MerchantRateLimiter(limits.merchantRequestsPerSecond),
    },
  ];
}
