import type { Merchant } from '@gateway/merchants';

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per-merchant request rate limits: a token bucket per merchant holding one second's worth of
 * requests, refilled continuously. The limit is the merchant's `rateLimit`, else the default;
 * 0 means none. Buckets are kept for authenticated merchants only, so their number is bounded
 * by the merchants file.
 */
export class MerchantRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly defaultPerSecond: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The merchant's limit in requests per second; 0 for none. */
  limitOf(merchant: Merchant): number {
    return merchant.rateLimit ?? this.defaultPerSecond;
  }

  /** Takes one request from the merchant's allowance: 0 if granted, else whole seconds to wait. */
  take(merchant: Merchant): number {
    const rate = this.limitOf(merchant);
    if (rate === 0) return 0;
    const now = this.clock();
    let bucket = this.buckets.get(merchant.id);
    if (!bucket) this.buckets.set(merchant.id, (bucket = { tokens: rate, at: now }));
    else {
      bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) * rate) / 1000);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / rate);
  }
}
