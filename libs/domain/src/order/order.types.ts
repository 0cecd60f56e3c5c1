import type { Thousandths } from '../money';

export const TRANSACTION_TYPES = [
  'AUTHENTICATION',
  'AUTHORIZATION',
  'AUTHORIZATION_UPDATE',
  'CAPTURE',
  'PAYMENT',
  'REFUND',
  'VERIFICATION',
  'VOID_AUTHORIZATION',
  'VOID_CAPTURE',
  'VOID_PAYMENT',
  'VOID_REFUND',
  /** The acquirer took captured money back (issue 18); never a merchant's request. */
  'CHARGEBACK',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export type OrderStatus =
  | 'AUTHORIZED'
  | 'PARTIALLY_CAPTURED'
  | 'CAPTURED'
  | 'PARTIALLY_REFUNDED'
  | 'REFUNDED'
  | 'CANCELLED'
  | 'FAILED'
  | 'VERIFIED'
  | 'AUTHENTICATION_INITIATED'
  | 'AUTHENTICATED'
  | 'AUTHENTICATION_UNSUCCESSFUL'
  | 'INITIATED'
  /** From the acquirer: a dispute is open on a capture or payment of the order. */
  | 'DISPUTED'
  /** From the acquirer: it took money back, and no dispute is open. */
  | 'CHARGEBACK_PROCESSED';

/** The spec's response.gatewayCode values. */
export type GatewayCode =
  | 'ABORTED'
  | 'ACQUIRER_SYSTEM_ERROR'
  | 'APPROVED'
  | 'APPROVED_PENDING_SETTLEMENT'
  | 'AUTHENTICATION_FAILED'
  | 'BLOCKED'
  | 'CANCELLED'
  | 'DECLINED'
  | 'DECLINED_AVS'
  | 'DECLINED_AVS_CSC'
  | 'DECLINED_CSC'
  | 'DECLINED_DO_NOT_CONTACT'
  | 'DEFERRED_TRANSACTION_RECEIVED'
  | 'DUPLICATE_BATCH'
  | 'EXCEEDED_RETRY_LIMIT'
  | 'EXPIRED_CARD'
  | 'INSUFFICIENT_FUNDS'
  | 'INVALID_CSC'
  | 'LOCK_FAILURE'
  | 'NOT_ENROLLED_3D_SECURE'
  | 'NOT_SUPPORTED'
  | 'PARTIALLY_APPROVED'
  | 'PENDING'
  | 'REFERRED'
  | 'SYSTEM_ERROR'
  | 'TIMED_OUT'
  | 'UNKNOWN'
  | 'UNSPECIFIED_FAILURE';

export type Result = 'SUCCESS' | 'FAILURE' | 'PENDING' | 'UNKNOWN';

/** Behaviour notes, "result and response.gatewayCode". */
export function resultOf(code: GatewayCode): Result {
  switch (code) {
    case 'APPROVED':
    case 'APPROVED_PENDING_SETTLEMENT':
    case 'PARTIALLY_APPROVED':
      return 'SUCCESS';
    case 'PENDING':
      return 'PENDING';
    case 'UNKNOWN':
      return 'UNKNOWN';
    default:
      return 'FAILURE';
  }
}

/** Money moves only on these codes; every other answer leaves the order's totals untouched. */
export function isApproved(code: GatewayCode): boolean {
  return resultOf(code) === 'SUCCESS';
}

/** A card as the gateway records it: never the full number, never the security code. */
export interface RecordedCard {
  /** Masked under the merchant's setting when recorded (6.4 unless it asked for less or more). */
  readonly number: string;
  /** A keyed digest of the full number: the same card gives the same value, nothing else does. */
  readonly fingerprint?: string;
  readonly expiry: { readonly month: string; readonly year: string };
  readonly brand?: string;
  readonly scheme?: string;
  readonly fundingMethod?: string;
}

/**
 * A source of funds as recorded: sourceOfFunds.provided with every number masked (cards 6.4,
 * bank accounts and gift cards to their last four) and no security code or PIN.
 */
export interface RecordedSourceOfFunds {
  readonly type: string;
  /** The card token the card came from (issue 15), never the card number. */
  readonly token?: string;
  readonly provided?: { readonly card?: RecordedCard; readonly [group: string]: unknown };
  /**
   * Bank account numbers and IBANs the merchant may ask to see unmasked, by field path under
   * `provided` (`ach.bankAccountNumber`): ciphertexts, opaque to the domain.
   */
  readonly sealed?: Readonly<Record<string, string>>;
}

/** Same card: by fingerprint when both records have one, else by the recorded mask. */
export function isSameCard(
  a?: Pick<RecordedCard, 'number' | 'fingerprint'>,
  b?: Pick<RecordedCard, 'number' | 'fingerprint'>,
): boolean {
  if (a?.fingerprint !== undefined && b?.fingerprint !== undefined)
    return a.fingerprint === b.fingerprint;
  return a?.number === b?.number;
}

/**
 * What the processor (acquirer) answered. The decider reads only gatewayCode and approvedAmount;
 * `details` (acquirer codes, AVS, CSC, authorization code, …) is kept verbatim for responses and audit.
 */
export interface ProcessorOutcome {
  readonly gatewayCode: GatewayCode;
  readonly approvedAmount: Thousandths;
  /** The processor timed out and the gateway reversed whatever it may have authorized. */
  readonly reversed?: boolean;
  readonly details: Readonly<Record<string, unknown>>;
}
