import { ApiError } from '@gateway/contract';
import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PageTokens } from '../payer/page-token';
import { mergeUpdate } from '../session/session-fields';
import { problemPage } from '../payer/payer-page.layout';
import { sendPage } from '../payer/payer-page.response';
import { CheckoutAuthentication, type PaymentAuthentication } from './checkout-authentication';
import { CheckoutPayments } from './checkout-payment';
import {
  checkoutRequest,
  KEEP_CARD,
  type CardForm,
  type CardRefusal,
  type CheckoutRequest,
} from './checkout-request';
import { CheckoutSessions, type CheckoutSession } from './checkout-sessions';
import { merchantOriginOf, transactionIdOf } from './checkout-terms';
import {
  CHECKOUT_MODES,
  renderChallengeRedirect,
  renderCheckoutPage,
  renderFramedResult,
  type CheckoutMode,
} from './checkout.page';

type Form = CardForm & { token?: string; mode?: string };

const modeOf = (text: unknown): CheckoutMode =>
  CHECKOUT_MODES.find((mode) => mode === text) ?? 'page';

/**
 * The payment page (behaviour notes, "Hosted Checkout"), under /payer/ so that a browser gets a
 * page whatever goes wrong. The session id in the path finds the checkout; each form carries the
 * signed token of the next payment attempt, which is taken once (the session's version is the
 * lock), so a tampered or replayed step is refused. The page may be framed by the merchant's
 * origin (returnUrl's) only.
 */
@Controller('payer/checkout')
export class CheckoutHttpController {
  constructor(
    private readonly checkouts: CheckoutSessions,
    private readonly payments: CheckoutPayments,
    private readonly authentication: CheckoutAuthentication,
    private readonly tokens: PageTokens,
  ) {}

  @Get(':sessionId')
  async show(
    @Param('sessionId') id: string,
    @Query('mode') mode: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const session = await this.found(id, reply);
    if (!session) return;
    if (session.content.checkout.completed) return sendPage(reply, 409, alreadyPaid());
    return this.form(reply, 200, session, modeOf(mode));
  }

  @Post(':sessionId')
  async pay(
    @Param('sessionId') id: string,
    @Body() form: Form,
    @Headers('user-agent') browser: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const mode = modeOf(form?.mode);
    const session = await this.steppable(id, form?.token, reply);
    if (!session) return;
    const terms = session.content.checkout;
    const request = checkoutRequest(terms, form);
    if (!('apiOperation' in request)) return this.form(reply, 400, session, mode, request, form);
    const attempt = terms.attempts + 1;
    // A new attempt drops a challenge left waiting: its return is then refused.
    const claimed = await this.checkouts.advance(session, {
      attempts: attempt,
      challenge: undefined,
    });
    if (!claimed) return sendPage(reply, 409, replayed());
    if (request.apiOperation === KEEP_CARD)
      return this.complete(
        reply,
        claimed,
        mode,
        mergeUpdate(claimed.content.fields, request.value),
      );
    const authenticationId = `${transactionIdOf(id, attempt)}-3ds`;
    let authentication: PaymentAuthentication = { kind: 'none' };
    try {
      if (terms.operation !== 'VERIFY')
        authentication = await this.authentication.start(
          session.merchantId,
          terms,
          authenticationId,
          request,
          browser ?? '',
          `/payer/checkout/${id}/3ds?token=${this.tokenOf(claimed, attempt)}`,
        );
    } catch (thrown) {
      return this.form(reply, 200, claimed, mode, refusalOf(thrown), form);
    }
    if (authentication.kind === 'challenge') {
      const waiting = await this.checkouts.advance(claimed, {
        challenge: { attempt, authenticationId, request },
      });
      if (!waiting) return sendPage(reply, 409, replayed());
      return sendPage(reply, 200, renderChallengeRedirect(authentication.redirectHtml));
    }
    const proof = authentication.kind === 'answered' ? authenticationId : undefined;
    return this.settle(reply, claimed, attempt, request, mode, proof, form);
  }

  /**
   * Where the simulator's challenge page sends the payer back (the auto-post of the result). The
   * query's token names the attempt waiting; the payment cites the authentication, whose decider
   * refuses it when the payer failed or cancelled. The challenge took the whole window (its forms
   * target _top), even from a framed page: from here on the page is the payment page model.
   */
  @Post(':sessionId/3ds')
  async challengeReturn(
    @Param('sessionId') id: string,
    @Query('token') token: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const session = await this.found(id, reply);
    if (!session) return;
    const { challenge: waiting, completed } = session.content.checkout;
    if (completed) return sendPage(reply, 409, alreadyPaid());
    const target = typeof token === 'string' ? this.tokens.read(token, 'checkout') : undefined;
    const ours =
      target?.merchantId === session.merchantId &&
      target.transactionId === transactionIdOf(id, waiting?.attempt ?? 0);
    if (!waiting || !ours) return sendPage(reply, 409, replayed());
    const taken = await this.checkouts.advance(session, { challenge: undefined });
    if (!taken) return sendPage(reply, 409, replayed());
    const { attempt, request, authenticationId } = waiting;
    return this.settle(reply, taken, attempt, request, 'page', authenticationId);
  }

  @Post(':sessionId/cancel')
  async cancel(@Param('sessionId') id: string, @Body() form: Form, @Res() reply: FastifyReply) {
    const session = await this.steppable(id, form?.token, reply);
    if (!session) return;
    const terms = session.content.checkout;
    const to = terms.cancelUrl ?? terms.returnUrl;
    return this.leave(reply, session, modeOf(form?.mode), 'cancel', to);
  }

  /** The payment of a claimed attempt: the way back to the merchant, or the form again with why not. */
  private async settle(
    reply: FastifyReply,
    claimed: CheckoutSession,
    attempt: number,
    request: CheckoutRequest,
    mode: CheckoutMode,
    authenticationId?: string,
    holder?: CardForm,
  ) {
    const terms = claimed.content.checkout;
    let error: CardRefusal;
    try {
      const transactionId = transactionIdOf(claimed.id, attempt);
      const result = await this.payments.pay(
        claimed.merchantId,
        terms,
        transactionId,
        request,
        authenticationId,
      );
      if (result.approved)
        return this.complete(reply, claimed, mode, await this.saved(claimed, request));
      error = {
        message: `The payment was not approved (${result.gatewayCode}). Try again, or with another card.`,
      };
    } catch (thrown) {
      error = refusalOf(thrown);
    }
    return this.form(reply, 200, claimed, mode, error, holder);
  }

  /** The signed token of an attempt's step. */
  private tokenOf(session: CheckoutSession, attempt: number): string {
    return this.tokens.issue({
      kind: 'checkout',
      merchantId: session.merchantId,
      orderId: session.content.checkout.order.id,
      transactionId: transactionIdOf(session.id, attempt),
    });
  }

  /** The page with the token of the next attempt, and the last attempt's error if any. */
  private form(
    reply: FastifyReply,
    status: number,
    session: CheckoutSession,
    mode: CheckoutMode,
    error?: CardRefusal,
    holder?: CardForm,
  ) {
    const terms = session.content.checkout;
    const page = renderCheckoutPage({
      terms,
      action: `/payer/checkout/${session.id}`,
      token: this.tokenOf(session, terms.attempts + 1),
      mode,
      error,
      holder,
    });
    return sendPage(reply, status, page, merchantOriginOf(terms));
  }

  /** The live checkout session, or undefined once the payer got the "expired" page. */
  private async found(id: string, reply: FastifyReply): Promise<CheckoutSession | undefined> {
    const session = await this.checkouts.find(id);
    if (!session) sendPage(reply, 404, expired());
    return session;
  }

  /** The session a form step may act on, or undefined once the payer got the refusal. */
  private async steppable(
    id: string,
    token: unknown,
    reply: FastifyReply,
  ): Promise<CheckoutSession | undefined> {
    const session = await this.found(id, reply);
    if (!session) return undefined;
    const refused = this.refusedStep(session, token);
    if (!refused) return session;
    sendPage(reply, refused.status, refused.page);
    return undefined;
  }

  /** Why a step's token is not taken: not one of ours for this session (400), or already used (409). */
  private refusedStep(session: CheckoutSession, token: unknown) {
    const target = typeof token === 'string' ? this.tokens.read(token, 'checkout') : undefined;
    const terms = session.content.checkout;
    const ours =
      target?.merchantId === session.merchantId &&
      target.orderId === terms.order.id &&
      target.transactionId.startsWith(transactionIdOf(session.id, 0).slice(0, -1));
    if (!ours)
      return {
        status: 400,
        page: problemPage('Link not valid', 'This payment form is not valid.'),
      };
    if (terms.completed) return { status: 409, page: alreadyPaid() };
    if (target.transactionId !== transactionIdOf(session.id, terms.attempts + 1))
      return { status: 409, page: replayed() };
    return undefined;
  }

  /**
   * The card saved when the payer asked, as the session's fields show a token. A card the vault
   * refuses leaves the payment made and no token: the merchant sees none in the session.
   */
  private async saved(
    claimed: CheckoutSession,
    request: CheckoutRequest,
  ): Promise<Record<string, unknown> | undefined> {
    if (!request.saveCard) return undefined;
    try {
      const token = await this.payments.saveCard(claimed.merchantId, request);
      return { ...claimed.content.fields, sourceOfFunds: { type: 'CARD', token } };
    } catch (thrown) {
      refusalOf(thrown);
      return undefined;
    }
  }

  /** After success: the returnUrl with resultIndicator (the successIndicator) and sessionVersion. */
  private async complete(
    reply: FastifyReply,
    claimed: CheckoutSession,
    mode: CheckoutMode,
    fields?: Record<string, unknown>,
  ) {
    const done = await this.checkouts.complete(claimed, fields);
    if (!done) return sendPage(reply, 409, alreadyPaid());
    const result = {
      resultIndicator: this.checkouts.successIndicatorOf(done),
      sessionVersion: done.version,
    };
    const to = new URL(done.content.checkout.returnUrl);
    for (const [name, value] of Object.entries(result)) to.searchParams.set(name, value);
    return this.leave(reply, done, mode, 'complete', to.href, result);
  }

  /** The payment page goes to `to` itself; a framed page tells the merchant's page (checkout.min.js). */
  private leave(
    reply: FastifyReply,
    session: CheckoutSession,
    mode: CheckoutMode,
    kind: 'complete' | 'cancel',
    to: string,
    result?: { resultIndicator: string; sessionVersion: string },
  ) {
    if (mode === 'page') return reply.status(303).header('location', to).send();
    const terms = session.content.checkout;
    const origin = merchantOriginOf(terms);
    const page = renderFramedResult({ terms, kind, redirect: to, origin, ...result });
    return sendPage(reply, 200, page, origin);
  }
}

/** A refusal of the API (an operation the order's state does not allow) is shown on the page. */
function refusalOf(thrown: unknown): CardRefusal {
  if (thrown instanceof ApiError) return { message: thrown.message };
  throw thrown;
}

const expired = () =>
  problemPage('Payment page expired', 'This payment page has expired or does not exist.');
const alreadyPaid = () => problemPage('Already paid', 'This order has been paid.');
const replayed = () => problemPage('Already submitted', 'This payment form was already submitted.');
