// Preloaded into a gateway (NODE_OPTIONS=--require) by the agreements test: the process's clock
// runs CLOCK_AHEAD_DAYS ahead, so a payment can be made after an agreement's expiry date
// without waiting for it. Only `new Date()` and `Date.now()` move; dates given explicitly stay.
'use strict';
const RealDate = Date;
const aheadMs = Number(process.env.CLOCK_AHEAD_DAYS || 0) * 86_400_000;

class AheadDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + aheadMs);
    else super(...args);
  }
  static now() {
    return RealDate.now() + aheadMs;
  }
}
globalThis.Date = AheadDate;
