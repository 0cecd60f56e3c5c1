import type { Thousandths } from '../../domain/src/money';

/**
 * The acquirer port: the application sends every operation through it and records the answer.
 * The domain never sees an implementation, only the answer's gatewayCode and approvedAmount.
 */
export interface Acquirer {
  process(request: AcquirerRequest): Promise<AcquirerAnswer>;
}

/** Operations that present a card. */
export type CardOperation = 'AUTHORIZE' | 'PAY' | 'VERIFY';
/** Operations that act on an earlier transaction of the order; they carry no card. */
export type ReferenceOperation = 'CAPTURE' | 'REFUND' | 'VOID';
export type AcquirerOperation = CardOperation | ReferenceOperation | 'UPDATE_AUTHORIZATION';

interface RequestBase {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  /** For VERIFY only risk looks at it; for VOID it is the voided transaction's amount. */
  readonly amount: Thousandths;
  readonly currency: string;
  /** The gateway's clock, passed in so that answers are reproducible. */
  readonly now: Date;
}

export interface AcquirerCard {
  /** The full number: held in memory for this call only, never recorded. */
  readonly number: string;
  /** 1-12. */
  readonly expiryMonth: number;
  /** Two digits: 39 means 2039. */
  readonly expiryYear: number;
  readonly securityCode?: string;
}

export interface CardRequest extends RequestBase {
  readonly operation: CardOperation;
  readonly card: AcquirerCard;
  readonly billingStreet?: string;
  readonly acceptPartialAmount?: boolean;
  /** customer.email: risk screening reads it. */
  readonly customerEmail?: string;
}

/** AUTHORIZE, PAY or VERIFY from a source other than a card: ACH, a gift card, a bank transfer. */
export interface AccountRequest extends RequestBase {
  readonly operation: CardOperation;
  readonly sourceType: 'ACH' | 'GIFT_CARD' | 'PROVIDER_B' | 'PROVIDER_C';
  /** The gift card's full number, in memory for this call only: it identifies the balance. */
  readonly giftCardNumber?: string;
  readonly acceptPartialAmount?: boolean;
  /** customer.email: risk screening reads it. */
  readonly customerEmail?: string;
}

export interface ReferenceRequest extends RequestBase {
  readonly operation: ReferenceOperation;
}

/**
 * UPDATE_AUTHORIZATION: a new total for the order's card authorization. The card is the one the
 * authorization recorded: its expiry, never its number (the gateway does not keep it).
 */
export interface AuthorizationUpdateRequest extends RequestBase {
  readonly operation: 'UPDATE_AUTHORIZATION';
  readonly cardExpiry: Pick<AcquirerCard, 'expiryMonth' | 'expiryYear'>;
  /** customer.email: risk screening reads it. */
  readonly customerEmail?: string;
}

export type AcquirerRequest =
  CardRequest | AccountRequest | ReferenceRequest | AuthorizationUpdateRequest;

/**
 * The response.gatewayCode values an acquirer link can produce: a subset of the spec's list
 * (gateway-only codes such as LOCK_FAILURE are not the acquirer's to give).
 */
export type AcquirerGatewayCode =
  | 'APPROVED'
  | 'APPROVED_PENDING_SETTLEMENT'
  | 'PARTIALLY_APPROVED'
  | 'PENDING'
  | 'UNKNOWN'
  | 'BLOCKED'
  | 'DECLINED'
  | 'DECLINED_AVS'
  | 'DECLINED_AVS_CSC'
  | 'DECLINED_CSC'
  | 'DECLINED_DO_NOT_CONTACT'
  | 'EXPIRED_CARD'
  | 'INSUFFICIENT_FUNDS'
  | 'INVALID_CSC'
  | 'REFERRED'
  | 'NOT_SUPPORTED'
  | 'TIMED_OUT'
  | 'ACQUIRER_SYSTEM_ERROR'
  | 'SYSTEM_ERROR'
  | 'UNSPECIFIED_FAILURE';

export type CscGatewayCode =
  'MATCH' | 'NOT_PRESENT' | 'NOT_PROCESSED' | 'NOT_SUPPORTED' | 'NO_MATCH';

export type AvsGatewayCode =
  | 'ADDRESS_MATCH'
  | 'ADDRESS_ZIP_MATCH'
  | 'NAME_ADDRESS_MATCH'
  | 'NAME_MATCH'
  | 'NAME_ZIP_MATCH'
  | 'NOT_AVAILABLE'
  | 'NOT_REQUESTED'
  | 'NOT_VERIFIED'
  | 'NO_MATCH'
  | 'SERVICE_NOT_AVAILABLE_RETRY'
  | 'SERVICE_NOT_SUPPORTED'
  | 'ZIP_MATCH';

export type RiskGatewayCode = 'ACCEPTED' | 'NOT_CHECKED' | 'REJECTED' | 'REVIEW_REQUIRED';

export type FundingMethod = 'CREDIT' | 'DEBIT' | 'CHARGE' | 'UNKNOWN';

/** A verification result (CSC, AVS); acquirerCode is absent when nothing was checked. */
export interface Verification<Code extends string> {
  readonly gatewayCode: Code;
  readonly acquirerCode?: string;
}

/** transaction.acquirer.* */
export interface AcquirerTransaction {
  readonly id: string;
  readonly transactionId: string;
  readonly batch: number;
  /** YYYY-MM-DD in the acquirer's time zone. */
  readonly date: string;
  /** +hhmm or -hhmm. */
  readonly timeZone: string;
  /** YYYY-MM-DD in the acquirer's time zone. */
  readonly settlementDate: string;
}

/** sourceOfFunds.provided.card facts the acquirer derives from the card number. */
export interface CardFacts {
  readonly brand: string;
  readonly scheme: string;
  readonly fundingMethod: FundingMethod;
}

/** The acquirer's answer: an immutable plain object, safe to record verbatim. */
export interface AcquirerAnswer {
  readonly gatewayCode: AcquirerGatewayCode;
  /** Equals the request amount except on PARTIALLY_APPROVED; money moves only on an approval. */
  readonly approvedAmount: Thousandths;
  /** True when the gateway reversed the authorization (TIMED_OUT): no funds stay held. */
  readonly reversed: boolean;
  /** Absent, like `acquirer`, when the request never reached the acquirer (BLOCKED by risk). */
  readonly acquirerCode?: string;
  readonly acquirerMessage?: string;
  /** On approvals only. */
  readonly authorizationCode?: string;
  readonly receipt?: string;
  readonly acquirer?: AcquirerTransaction;
  /** Card operations only. */
  readonly cardSecurityCode?: Verification<CscGatewayCode>;
  readonly avs?: Verification<AvsGatewayCode>;
  readonly risk?: { readonly gatewayCode: RiskGatewayCode };
  readonly card?: CardFacts;
  /** Gift cards: the balance left after this transaction. */
  readonly giftCard?: {
    readonly availableBalance: { readonly amount: Thousandths; readonly currency: string };
  };
  /** VOID: the acquirer's raw authorization response fields (spec, authorizationResponse group). */
  readonly authorizationResponse?: Readonly<Record<string, string>>;
}
