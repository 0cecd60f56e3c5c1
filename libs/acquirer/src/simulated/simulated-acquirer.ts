import { isLuhnValid } from '../../../domain/src/card';
import type {
  AccountRequest,
  Acquirer,
  AcquirerAnswer,
  AcquirerRequest,
  AcquirerTransaction,
  AuthorizationUpdateRequest,
  CardRequest,
  RiskGatewayCode,
} from '../acquirer.port';
import { avsResult } from './avs';
import { cardFacts } from './bin-table';
import { cscResult } from './csc';
import { hashedDigits } from './hashed-digits';
import { GiftCardBalances } from './gift-card-balances';
import { type ExpiryOutcome, outcomeByExpiry } from './expiry';

type SimulatedCode =
  ExpiryOutcome | 'PARTIALLY_APPROVED' | 'APPROVED_PENDING_SETTLEMENT' | 'INSUFFICIENT_FUNDS';

/** ISO 8583-style response code and text that come with each outcome. */
const ACQUIRER_RESPONSE: Readonly<Record<SimulatedCode, readonly [string, string]>> = {
  APPROVED: ['00', 'Approved'],
  PARTIALLY_APPROVED: ['10', 'Partial approval'],
  APPROVED_PENDING_SETTLEMENT: ['00', 'Approved, pending settlement'],
  INSUFFICIENT_FUNDS: ['51', 'Insufficient funds'],
  DECLINED: ['05', 'Do not honour'],
  EXPIRED_CARD: ['54', 'Expired card'],
  TIMED_OUT: ['68', 'Response received too late'],
  ACQUIRER_SYSTEM_ERROR: ['96', 'System malfunction'],
  UNSPECIFIED_FAILURE: ['06', 'Error'],
  UNKNOWN: ['91', 'Issuer unavailable'],
};
const APPROVALS: ReadonlySet<SimulatedCode> = new Set([
  'APPROVED',
  'PARTIALLY_APPROVED',
  'APPROVED_PENDING_SETTLEMENT',
]);
const INVALID_CARD_NUMBER = ['14', 'Invalid card number'] as const;

const ACQUIRER_ID = 'SIMULATOR';

/** Behaviour notes: an amount whose thousandths part is 777 triggers partial approval. */
const PARTIAL_TRIGGER = 777;

/**
 * Risk screening on customer.email (decided here: prefix, case-insensitive). A rejection stops
 * the transaction before the acquirer, so it is answered BLOCKED, the spec's code for that.
 */
function riskOf(email: string | undefined): RiskGatewayCode {
  const address = (email ?? '').toLowerCase();
  if (address.startsWith('risk-reject@')) return 'REJECTED';
  if (address.startsWith('risk-review@')) return 'REVIEW_REQUIRED';
  return 'ACCEPTED';
}

/** Reference numbers derived from the transaction's ids (the same on a replay). */
function referenceDigits(request: AcquirerRequest): (offset: number, length: number) => string {
  return hashedDigits(`${request.merchantId}\0${request.orderId}\0${request.transactionId}`);
}

/** One batch per UTC day, settled that day. */
function acquirerTransaction(request: AcquirerRequest, transactionId: string): AcquirerTransaction {
  const day = request.now.toISOString().slice(0, 10);
  return {
    id: ACQUIRER_ID,
    transactionId,
    batch: Number(day.replaceAll('-', '')),
    date: day,
    timeZone: '+0000',
    settlementDate: day,
  };
}

/** An answer from the acquirer: codes, reference numbers, and an authorization code on approval. */
function acquirerAnswer(
  request: AcquirerRequest,
  gatewayCode: SimulatedCode,
  { response = ACQUIRER_RESPONSE[gatewayCode], approvedAmount = request.amount } = {},
): AcquirerAnswer {
  const digits = referenceDigits(request);
  const answer: Writable<AcquirerAnswer> = {
    gatewayCode,
    approvedAmount,
    reversed: gatewayCode === 'TIMED_OUT',
    acquirerCode: response[0],
    acquirerMessage: response[1],
  };
  if (APPROVALS.has(gatewayCode)) answer.authorizationCode = digits(0, 6);
  answer.receipt = digits(6, 12);
  answer.acquirer = acquirerTransaction(request, digits(18, 15));
  return answer;
}

/** An answer still being built (members added in the order the answer lists them). */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

function cardOutcome(request: CardRequest): AcquirerAnswer {
  const { card } = request;
  // The contract rejects such numbers first; the simulator still never approves one.
  if (!isLuhnValid(card.number)) {
    return acquirerAnswer(request, 'DECLINED', { response: INVALID_CARD_NUMBER });
  }
  return amountOutcome(request, outcomeByExpiry(card, request.now), request.acceptPartialAmount);
}

/**
 * The expiry's outcome, unless the amount triggers a partial approval: granted when the request
 * accepts one, declined otherwise. VERIFY moves no money, so it is never approved for part.
 */
function amountOutcome(
  request: CardRequest | AuthorizationUpdateRequest,
  outcome: ExpiryOutcome,
  acceptPartialAmount = false,
): AcquirerAnswer {
  const { amount } = request;
  if (
    outcome !== 'APPROVED' ||
    request.operation === 'VERIFY' ||
    amount % 1000 !== PARTIAL_TRIGGER
  ) {
    return acquirerAnswer(request, outcome);
  }
  return acceptPartialAmount
    ? acquirerAnswer(request, 'PARTIALLY_APPROVED', { approvedAmount: Math.floor(amount / 2) })
    : acquirerAnswer(request, 'DECLINED');
}

function cardAnswer(request: CardRequest): AcquirerAnswer {
  const risk = { gatewayCode: riskOf(request.customerEmail) };
  const card = cardFacts(request.card.number);
  if (risk.gatewayCode === 'REJECTED') {
    return { gatewayCode: 'BLOCKED', approvedAmount: request.amount, reversed: false, risk, card };
  }
  // Added to the answer cardOutcome has just built, rather than spread into a copy of it.
  const answer: Writable<AcquirerAnswer> = cardOutcome(request);
  answer.cardSecurityCode = cscResult(request.card.number, request.card.securityCode);
  answer.avs = avsResult(request.billingStreet);
  answer.risk = risk;
  answer.card = card;
  return answer;
}

/**
 * UPDATE_AUTHORIZATION is answered as AUTHORIZE for the order's card (behaviour notes): risk
 * screening, the card's expiry, and the amount; a new total has no acceptPartialAmount, so the
 * amount that triggers a partial approval is declined. The number is not kept, so no Luhn check,
 * and no security code is presented.
 */
function authorizationUpdateAnswer(request: AuthorizationUpdateRequest): AcquirerAnswer {
  const risk = { gatewayCode: riskOf(request.customerEmail) };
  if (risk.gatewayCode === 'REJECTED') {
    return { gatewayCode: 'BLOCKED', approvedAmount: request.amount, reversed: false, risk };
  }
  const answer: Writable<AcquirerAnswer> = amountOutcome(
    request,
    outcomeByExpiry(request.cardExpiry, request.now),
  );
  answer.risk = risk;
  return answer;
}

/** VOID: the raw fields some acquirers return for the reversal (spec, authorizationResponse group). */
function voidAuthorizationResponse(request: AcquirerRequest): Readonly<Record<string, string>> {
  const digits = referenceDigits(request);
  const time = request.now.toISOString();
  return {
    date: time.slice(5, 7) + time.slice(8, 10),
    processingCode: '020000',
    responseCode: '00',
    responseMessage: 'APPROVED',
    returnAci: 'Y',
    stan: digits(33, 6),
    time: time.slice(11, 13) + time.slice(14, 16) + time.slice(17, 19),
    transactionIdentifier: digits(39, 15),
  };
}

/**
 * The acquirer of test merchants: answers from the request alone, as the behaviour notes specify,
 * except gift card balances, which it keeps. CAPTURE, REFUND and VOID are always approved: they
 * act on an earlier authorization, and the domain has already checked their amounts.
 */
export class SimulatedAcquirer implements Acquirer {
  private readonly giftCards = new GiftCardBalances();

  async process(request: AcquirerRequest): Promise<AcquirerAnswer> {
    return deepFreeze(this.answerTo(request));
  }

  private answerTo(request: AcquirerRequest): AcquirerAnswer {
    if ('card' in request) return cardAnswer(request);
    if ('sourceType' in request) return this.accountAnswer(request);
    if ('cardExpiry' in request) return authorizationUpdateAnswer(request);
    const answer = acquirerAnswer(request, 'APPROVED');
    return request.operation === 'VOID'
      ? { ...answer, authorizationResponse: voidAuthorizationResponse(request) }
      : answer;
  }

  /**
   * Decided here: debits from a bank account (ACH, the bank-transfer providers) are approved pending
   * settlement; gift cards spend their balance. Risk screening applies to all.
   */
  private accountAnswer(request: AccountRequest): AcquirerAnswer {
    const risk = { gatewayCode: riskOf(request.customerEmail) };
    if (risk.gatewayCode === 'REJECTED') {
      return { gatewayCode: 'BLOCKED', approvedAmount: request.amount, reversed: false, risk };
    }
    if (request.sourceType !== 'GIFT_CARD' || !request.giftCardNumber) {
      return {
        ...acquirerAnswer(
          request,
          request.sourceType === 'GIFT_CARD' ? 'APPROVED' : 'APPROVED_PENDING_SETTLEMENT',
        ),
        risk,
      };
    }
    const { giftCardNumber: number, currency } = request;
    const spend =
      request.operation === 'VERIFY'
        ? {
            outcome: 'APPROVED' as const,
            approvedAmount: 0,
            balance: this.giftCards.balanceOf(number, currency),
          }
        : this.giftCards.spend(
            number,
            currency,
            request.amount,
            request.acceptPartialAmount === true,
          );
    return {
      ...acquirerAnswer(request, spend.outcome, { approvedAmount: spend.approvedAmount }),
      risk,
      giftCard: { availableBalance: { amount: spend.balance, currency } },
    };
  }
}

function deepFreeze<T extends object>(value: T): T {
  // for…in rather than Object.values: no array per object frozen (answers are plain objects).
  for (const key in value) {
    const member = value[key];
    if (typeof member === 'object' && member !== null) deepFreeze(member);
  }
  return Object.freeze(value);
}
