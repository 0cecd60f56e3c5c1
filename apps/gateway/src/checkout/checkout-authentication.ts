import type { PublicUrl } from '../config/public-url';
import type { CheckoutPayments } from './checkout-payment';
import type { CheckoutRequest } from './checkout-request';
import { notifiedOf, type CheckoutTerms } from './checkout-terms';

type Json = Record<string, unknown>;

/** What 3-D Secure asks before the payment. */
export type PaymentAuthentication =
  /** The card is not enrolled: the payment goes without. */
  | { readonly kind: 'none' }
  /** Answered at once (frictionless): the payment cites it, and its decider heeds a failure. */
  | { readonly kind: 'answered'; readonly authenticationId: string }
  /** The issuer asks the payer: redirectHtml sends the browser to the challenge page. */
  | {
      readonly kind: 'challenge';
      readonly authenticationId: string;
      readonly redirectHtml: string;
    };

/**
 * 3-D Secure for the payment page, as a merchant runs it (behaviour notes, "3-D Secure flow"):
 * INITIATE_AUTHENTICATION with the card, then AUTHENTICATE_PAYER with the payer's browser, on the
 * checkout's order, through the same commands. After a challenge the simulator's page sends the
 * payer back to the payment page (`returnTo`), which then pays.
 */
export class CheckoutAuthentication {
  constructor(
    private readonly payments: CheckoutPayments,
    private readonly publicUrl: PublicUrl,
  ) {}

  async start(
    merchantId: string,
    terms: CheckoutTerms,
    authenticationId: string,
    request: CheckoutRequest,
    browser: string,
    returnTo: string,
  ): Promise<PaymentAuthentication> {
    const card = ((request.value.sourceOfFunds as Json).provided as Json).card;
    const { amount, currency } = terms.order;
    const run = (body: Json, gatewayFields?: (value: Json) => Json) =>
      this.payments.execute(merchantId, terms, authenticationId, body, gatewayFields);
    const initiated = await run({
      apiOperation: 'INITIATE_AUTHENTICATION',
      authentication: { acceptVersions: '3DS2', channel: 'PAYER_BROWSER' },
      order: { currency, ...notifiedOf(terms) },
      sourceOfFunds: { provided: { card } },
    });
    if (
      (initiated.transaction as Json | undefined)?.authenticationStatus !==
      'AUTHENTICATION_AVAILABLE'
    )
      return { kind: 'none' };
    // The return address is the gateway's own (GATEWAY_PUBLIC_URL), not a merchant's field: it is
    // added after the contract, which asks https of the addresses merchants give.
    const address = `${this.publicUrl.value}${returnTo}`;
    const authenticated = await run(
      {
        apiOperation: 'AUTHENTICATE_PAYER',
        device: { browser: browser.slice(0, 255) || 'unknown' },
        order: { amount, currency },
      },
      (value) => ({ ...value, authentication: { redirectResponseUrl: address } }),
    );
    const authentication = authenticated.authentication as Json | undefined;
    return authentication?.payerInteraction === 'REQUIRED' &&
      typeof authentication.redirectHtml === 'string'
      ? { kind: 'challenge', authenticationId, redirectHtml: authentication.redirectHtml }
      : { kind: 'answered', authenticationId };
  }
}
