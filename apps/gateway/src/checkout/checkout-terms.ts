import type { CheckoutOperation } from '@gateway/contract';
import type { CheckoutRequest } from './checkout-request';

type Json = Record<string, unknown>;

/**
 * What a checkout session holds besides a payment session's fields: what the merchant asked the
 * payment page to do, and how far the page got. Stored in the session's sealed content.
 */
export interface CheckoutTerms {
  /** The API version the session was created at: the page's operations are made at it. */
  readonly apiVersion: number;
  readonly operation: CheckoutOperation;
  readonly returnUrl: string;
  readonly cancelUrl?: string;
  readonly merchantName: string;
  /** The page offers to save the card (interaction.saveCard OFFER). */
  readonly offersSaveCard?: boolean;
  readonly order: {
    readonly id: string;
    /** As the merchant wrote it (a decimal string). */
    readonly amount: string;
    readonly currency: string;
    readonly description?: string;
    /** Where the page's operations notify the merchant (webhooks), as order.notificationUrl. */
    readonly notificationUrl?: string;
  };
  /** Payments the page has tried; each had its own transaction id (transactionIdOf). */
  readonly attempts: number;
  /** Set by the payment that succeeded: the session takes no other. */
  readonly completed?: boolean;
  /**
   * A payment waiting for the payer's 3-D Secure challenge: its attempt, its authentication's
   * transaction id and the request to make after it. Sealed with the session like a card stored by
   * Update Session, and dropped when the payer returns.
   */
  readonly challenge?: {
    readonly attempt: number;
    readonly authenticationId: string;
    readonly request: CheckoutRequest;
  };
}

/** The terms of a checkout request the contract has validated. */
export function termsOf(apiVersion: number, value: Json): CheckoutTerms {
  const interaction = value.interaction as Json;
  const order = value.order as Json;
  return {
    apiVersion,
    operation: interaction.operation as CheckoutOperation,
    returnUrl: interaction.returnUrl as string,
    ...(typeof interaction.cancelUrl === 'string' ? { cancelUrl: interaction.cancelUrl } : {}),
    merchantName: (interaction.merchant as Json).name as string,
    ...(interaction.saveCard === 'OFFER' ? { offersSaveCard: true } : {}),
    order: {
      id: order.id as string,
      amount: order.amount as string,
      currency: order.currency as string,
      ...(typeof order.description === 'string' ? { description: order.description } : {}),
      ...(typeof order.notificationUrl === 'string'
        ? { notificationUrl: order.notificationUrl }
        : {}),
    },
    attempts: 0,
  };
}

/** order.notificationUrl for every operation the page runs, when the session has one. */
export const notifiedOf = (terms: CheckoutTerms): { notificationUrl?: string } =>
  terms.order.notificationUrl ? { notificationUrl: terms.order.notificationUrl } : {};

/**
 * The transaction id of the page's n-th payment attempt (1-based): the session's last characters
 * tell apart two checkout sessions of one order.
 */
export const transactionIdOf = (sessionId: string, attempt: number): string =>
  `checkout-${sessionId.slice(-8)}-${attempt}`;

/** The origin the page may be framed by and posts its result to: the returnUrl's. */
export const merchantOriginOf = (terms: CheckoutTerms): string => new URL(terms.returnUrl).origin;
