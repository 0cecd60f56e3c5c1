import { ApiError } from '@gateway/contract';
import type { Refusal } from './load-shedder';
import type { AdmissionLimits, AdmissionRefusal } from './request-admission';

/** Seconds a refused client is asked to wait; load changes within a second or so. */
export const RETRY_AFTER_SECONDS = 1;

const RETRY = `Retry after ${RETRY_AFTER_SECONDS} second`;

/**
 * The answer to each refusal, made once (an error is costly to make, and refusals come in
 * floods): 503 when the gateway cannot take more whoever asks, 429 when this merchant already
 * has its share open. Every one carries Retry-After: RETRY_AFTER_SECONDS.
 */
export function refusalErrors(
  limits: AdmissionLimits,
): Readonly<Record<Refusal | AdmissionRefusal, ApiError>> {
  return {
    overloaded: ApiError.busy(`The gateway is busy. ${RETRY}`),
    shutting_down: ApiError.busy(`The gateway is shutting down. ${RETRY}`),
    merchant_busy: ApiError.tooManyRequests(
      `This merchant already has ${limits.maxInFlightPerMerchant} requests in progress, the most it may have at once. ${RETRY}`,
    ),
    too_many_feeds: ApiError.tooManyRequests(
      `This merchant already has ${limits.maxFeedsPerMerchant} live feeds open, the most it may have at once. Close one, or retry later`,
    ),
  };
}
