import { redirectResponseFields } from '@gateway/order-view';
import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { PayerChoice } from '@gateway/acquirer';
import type { PayerDecision } from '@gateway/domain';
import type { FastifyReply } from 'fastify';
import { renderChallengePage } from './challenge.page';
import { PageTokens, type PageKind, type PageTarget } from './page-token';
import { problemPage } from './payer-page.layout';
import { sendPage } from './payer-page.response';
import { PayerTransactionQuery } from './payer-transaction.query';
import { renderProviderPage } from './provider.page';
import { RecordPayerStepCommand, type PayerStep } from './record-payer-step.command';
import { renderRedirectToMerchant } from './redirect.page';

type Form = Record<string, unknown>;

const CHOICES: readonly PayerChoice[] = ['success', 'failure', 'cancel'];
const DECISIONS: readonly PayerDecision[] = ['APPROVED', 'DECLINED', 'CANCELLED'];

/**
 * The payer's pages: the simulated issuer's challenge (ACS) and the simulated browser payment
 * providers. No Basic auth: the payer's browser holds no merchant credentials; each page is
 * authorised by the signed token in its path, and each step is accepted once. Whatever goes
 * wrong, the browser gets a page (ApiExceptionFilter), never the API's JSON.
 */
@Controller('payer')
export class PayerHttpController {
  constructor(
    private readonly tokens: PageTokens,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** The merchant's page posts the payer here with the CReq (redirectHtml, or its own form). */
  @Post('acs/:token')
  async challenge(@Param('token') token: string, @Res() reply: FastifyReply) {
    const target = this.targetOf(token, 'acs');
    const found = target && (await this.queries.execute(new PayerTransactionQuery(target)));
    if (!found) return sendPage(reply, 404, unknownLink());
    if (found.tx.authentication?.status !== 'AUTHENTICATION_PENDING')
      return sendPage(
        reply,
        409,
        problemPage('Already answered', 'This authentication is complete.'),
      );
    return sendPage(
      reply,
      200,
      renderChallengePage(found.order, found.tx, `/payer/acs/${token}/result`),
    );
  }

  @Post('acs/:token/result')
  async challengeResult(
    @Param('token') token: string,
    @Body() form: Form | undefined,
    @Res() reply: FastifyReply,
  ) {
    const choice = form?.choice as PayerChoice;
    if (!CHOICES.includes(choice))
      return sendPage(reply, 400, problemPage('Choose an outcome', 'No outcome was chosen.'));
    const outcome = await this.record(token, 'acs', { kind: 'challenge', choice });
    if (!outcome) return sendPage(reply, 404, unknownLink());
    if (!outcome.recorded)
      return sendPage(reply, 409, problemPage('Already answered', outcome.reason));
    const authentication = outcome.tx.authentication!;
    const returnTo = authentication.request.redirectResponseUrl as string;
    return sendPage(
      reply,
      200,
      renderRedirectToMerchant(
        returnTo,
        redirectResponseFields(outcome.order.orderId, outcome.tx, authentication),
      ),
    );
  }

  /** The merchant sends the payer here (browserPayment.redirectUrl); opening it is a step of its own. */
  @Get('provider/:token')
  async provider(@Param('token') token: string, @Res() reply: FastifyReply) {
    const target = this.targetOf(token, 'provider');
    if (!target) return sendPage(reply, 404, unknownLink());
    await this.commands.execute(new RecordPayerStepCommand(target, { kind: 'redirect' }));
    // Shown while the payer is at the provider, whether this request or an earlier one sent them.
    const found = await this.queries.execute(new PayerTransactionQuery(target));
    if (!found) return sendPage(reply, 404, unknownLink());
    if (found.tx.browserPayment?.interaction.status !== 'REDIRECTED_TO_PROVIDER')
      return sendPage(
        reply,
        409,
        problemPage('Payment finished', 'This payment is no longer open.'),
      );
    return sendPage(
      reply,
      200,
      renderProviderPage(found.order, found.tx, `/payer/provider/${token}`),
    );
  }

  @Post('provider/:token')
  async providerDecision(
    @Param('token') token: string,
    @Body() form: Form | undefined,
    @Res() reply: FastifyReply,
  ) {
    const decision = form?.decision as PayerDecision;
    if (!DECISIONS.includes(decision))
      return sendPage(reply, 400, problemPage('Choose an outcome', 'No outcome was chosen.'));
    const outcome = await this.record(token, 'provider', { kind: 'return', decision });
    if (!outcome) return sendPage(reply, 404, unknownLink());
    if (!outcome.recorded)
      return sendPage(reply, 409, problemPage('Payment finished', outcome.reason));
    // Spec: the same returnUrl whatever the outcome; the merchant retrieves the order to learn it.
    return reply.status(303).header('location', outcome.tx.browserPayment!.returnUrl).send();
  }

  private targetOf(token: string, kind: PageKind): PageTarget | undefined {
    return this.tokens.read(token, kind);
  }

  private async record(token: string, kind: PageKind, step: PayerStep) {
    const target = this.targetOf(token, kind);
    return target && this.commands.execute(new RecordPayerStepCommand(target, step));
  }
}

function unknownLink(): string {
  return problemPage('Link not valid', 'This payment link is not valid.');
}
