import type { ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import { LoadShedder } from '../../src/protection/load-shedder';
import { RequestAdmission } from '../../src/protection/request-admission';

/** A response whose connection the test closes. */
const response = () => new EventEmitter() as EventEmitter & ServerResponse;

function admissionWith(
  maxInFlight: number,
  maxInFlightPerMerchant: number,
  maxFeedsPerMerchant: number,
) {
  const shedder = new LoadShedder(maxInFlight, 0);
  return {
    shedder,
    admission: new RequestAdmission(shedder, { maxInFlightPerMerchant, maxFeedsPerMerchant }),
  };
}

describe('RequestAdmission', () => {
  it("refuses a merchant past its own cap without touching another merchant's, until one finishes", () => {
    const { shedder, admission } = admissionWith(10, 2, 0);
    const first = response();
    expect(admission.admitMerchant('A', first)).toBeUndefined();
    expect(admission.admitMerchant('A', response())).toBeUndefined();
    expect(admission.admitMerchant('A', response())).toBe('merchant_busy');
    expect(admission.admitMerchant('B', response())).toBeUndefined();
    expect(shedder.requestsInFlight).toBe(3);
    first.emit('close');
    expect(shedder.requestsInFlight).toBe(2);
    expect(admission.admitMerchant('A', response())).toBeUndefined();
  });

  it('sheds with the global limit once the merchants together reach it', () => {
    const { admission } = admissionWith(2, 0, 0);
    expect(admission.admitMerchant('A', response())).toBeUndefined();
    expect(admission.admitAnonymous(response())).toBeUndefined();
    expect(admission.admitMerchant('B', response())).toBe('overloaded');
  });

  it('counts live feeds per merchant, apart from requests in flight', () => {
    const { shedder, admission } = admissionWith(1, 1, 2);
    const feed = response();
    expect(admission.admitFeed('A', feed)).toBeUndefined();
    expect(admission.admitFeed('A', response())).toBeUndefined();
    expect(admission.admitFeed('A', response())).toBe('too_many_feeds');
    expect(admission.admitFeed('B', response())).toBeUndefined();
    expect(shedder.requestsInFlight).toBe(0);
    expect(admission.admitMerchant('A', response())).toBeUndefined();
    feed.emit('close');
    expect(admission.admitFeed('A', response())).toBeUndefined();
  });
});
