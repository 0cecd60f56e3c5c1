import type { ServerResponse } from 'node:http';
import type { LoadShedder } from './load-shedder';

/** Why a request that was read and whose client is known was refused. */
export type AdmissionRefusal = 'overloaded' | 'merchant_busy' | 'too_many_feeds';

export interface AdmissionLimits {
  /** Requests one merchant may have in progress; 0 for none. */
  readonly maxInFlightPerMerchant: number;
  /** Live feeds one merchant may have open; 0 for none. */
  readonly maxFeedsPerMerchant: number;
}

/** What one client (a merchant, or all clients without credentials together) has open. */
class Share {
  inFlight = 0;
  feeds = 0;
  // Made once per client, not per request: each response's 'close' listener is one of these.
  readonly release = (): void => {
    this.inFlight--;
    this.shedder.release();
  };
  readonly closeFeed = (): void => {
    this.feeds--;
  };

  constructor(private readonly shedder: LoadShedder) {}
}

/**
 * Counts a request in flight from when it is read and its client known (a merchant once
 * authenticated; for the pages without credentials, once its body is read), never while it is
 * still arriving: a client that is slow to send holds a connection (bounded by the timeouts and
 * GATEWAY_MAX_CONNECTIONS), not a slot. A merchant is refused past its own cap on requests in
 * progress, and on live feeds open, so one merchant cannot take what the others need; feeds are
 * long-lived and are not requests in progress. Each count lasts until the response's connection
 * closes or the response ends. Shares are kept for authenticated merchants only, so their number
 * is bounded by the merchants file.
 */
export class RequestAdmission {
  private readonly merchants = new Map<string, Share>();
  private readonly anonymous: Share;
  private readonly maxInFlightPerMerchant: number;
  private readonly maxFeedsPerMerchant: number;

  constructor(
    private readonly shedder: LoadShedder,
    readonly limits: AdmissionLimits,
  ) {
    this.anonymous = new Share(shedder);
    this.maxInFlightPerMerchant = limits.maxInFlightPerMerchant || Infinity;
    this.maxFeedsPerMerchant = limits.maxFeedsPerMerchant || Infinity;
  }

  /** An authenticated merchant's request, its body read. */
  admitMerchant(merchantId: string, response: ServerResponse): AdmissionRefusal | undefined {
    const share = this.shareOf(merchantId);
    if (share.inFlight >= this.maxInFlightPerMerchant) return 'merchant_busy';
    return this.take(share, response);
  }

  /** A live feed of an authenticated merchant: open until its connection closes. */
  admitFeed(merchantId: string, response: ServerResponse): AdmissionRefusal | undefined {
    const share = this.shareOf(merchantId);
    if (share.feeds >= this.maxFeedsPerMerchant) return 'too_many_feeds';
    share.feeds++;
    response.on('close', share.closeFeed);
    return undefined;
  }

  /** A request without merchant credentials (payer pages, documentation), its body read. */
  admitAnonymous(response: ServerResponse): AdmissionRefusal | undefined {
    return this.take(this.anonymous, response);
  }

  private take(share: Share, response: ServerResponse): AdmissionRefusal | undefined {
    const refusal = this.shedder.admit(share.inFlight);
    if (refusal) return refusal;
    share.inFlight++;
    response.on('close', share.release);
    return undefined;
  }

  private shareOf(merchantId: string): Share {
    let share = this.merchants.get(merchantId);
    if (!share) this.merchants.set(merchantId, (share = new Share(this.shedder)));
    return share;
  }
}
