import { merchantIdProblem } from '@gateway/merchants';
import { DELIVERY_STATUSES, type DeliveryStatus } from '@gateway/webhooks';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formOf, redirect, sendHtml, withSession } from '../console.controller';
import { problemPage } from '../pages/layout';
import { orderHref } from '../pages/order-table';
import {
  confirmPage,
  deliveryHref,
  deliveryPage,
  webhooksPage,
  type DeliveryFilter,
} from '../pages/webhooks.page';
import { ConsoleAuth } from '../sessions/console-auth';
import { ConsoleDb, type ConsoleSession } from '../sessions/console-db';
import { Deliveries } from './deliveries';
import { explanationOf, postToGateway, type GatewayConnection } from './gateway-client';

export const GATEWAY_CONNECTION = Symbol('GATEWAY_CONNECTION');

type Query = Record<string, unknown>;
type Params = Record<string, string>;
/** What an action did: the audit's outcome, and where the browser goes next (else a 502 page). */
type Done = { readonly outcome: string; readonly location?: string; readonly problem?: string };

const PAGE_SIZE = 25;

/**
 * The Webhooks page (read-only from the gateway's delivery store) and the operator's actions:
 * redeliver one delivery, every dead-lettered one, raise a test dispute. Each action is a GET
 * that says what will happen, then a POST with the CSRF token, which asks the gateway's operator
 * API; only operators may, and every attempt (refused ones too) goes to the audit.
 */
@Controller()
export class WebhooksController {
  constructor(
    @Inject(ConsoleAuth) private readonly auth: ConsoleAuth,
    @Inject(ConsoleDb) private readonly db: ConsoleDb,
    @Inject(Deliveries) private readonly deliveries: Deliveries,
    @Inject(GATEWAY_CONNECTION) private readonly gateway: GatewayConnection,
  ) {}

  @Get('webhooks')
  list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, (session) => {
      const query = request.query as Query;
      const filter = filterOf(query, session);
      const before = Number(query.before);
      const result = this.deliveries.list({
        ...((session.merchantId ?? filter.merchant)
          ? { merchantId: session.merchantId ?? filter.merchant }
          : {}),
        ...(filter.status ? { status: filter.status } : {}),
        limit: PAGE_SIZE,
        ...(Number.isSafeInteger(before) && before > 0 ? { before } : {}),
      });
      if (!result) return this.unavailable(reply, session);
      const redelivered = Number(query.redelivered);
      const notice = Number.isSafeInteger(redelivered)
        ? `${redelivered} dead-lettered ${redelivered === 1 ? 'delivery is' : 'deliveries are'} pending again.`
        : undefined;
      return sendHtml(reply, 200, webhooksPage(session, filter, result, notice));
    });
  }

  @Get('webhooks/redeliver-dead-lettered')
  confirmDeadLettered(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.operator(request, reply, (session) => {
      const merchant = filterOf(request.query as Query, session).merchant;
      const counts = this.deliveries.deadLettered(merchant);
      if (!counts) return this.unavailable(reply, session);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const listed = [...counts].map(([m, n]) => `${m} (${n})`).join(', ');
      const what = total
        ? `${total} dead-lettered ${total === 1 ? 'delivery' : 'deliveries'} of ${listed} will be sent again, each with a new round of retries.`
        : 'There is no dead-lettered delivery: nothing would be sent.';
      return sendHtml(
        reply,
        200,
        confirmPage(session, {
          title: 'Redeliver every dead-lettered delivery',
          what,
          action: `/webhooks/redeliver-dead-lettered${merchant ? `?merchant=${encodeURIComponent(merchant)}` : ''}`,
          button: 'Redeliver them',
          back: '/webhooks?status=DEAD_LETTERED',
          section: 'webhooks',
        }),
      );
    });
  }

  @Post('webhooks/redeliver-dead-lettered')
  redeliverDeadLettered(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const merchant = filterOf(request.query as Query, { role: 'operator' }).merchant;
    return this.act(
      request,
      reply,
      'redeliver dead-lettered',
      merchant ?? 'every merchant',
      async () => {
        const counts = this.deliveries.deadLettered(merchant);
        if (!counts)
          return {
            outcome: 'failed: delivery store not readable',
            problem: 'The delivery store cannot be read.',
          };
        let redelivered = 0;
        for (const merchantId of counts.keys()) {
          const answer = await postToGateway(
            this.gateway,
            '/operator/webhook/delivery/redeliverDeadLettered',
            { merchantId },
          );
          if (answer.kind !== 'answered' || answer.status !== 202) {
            const why = explanationOf(answer);
            return {
              outcome: `failed at ${merchantId} after ${redelivered}: ${why}`,
              problem: `The gateway refused (${why}); ${redelivered} were redelivered before.`,
            };
          }
          redelivered += Number((answer.body as { redelivered?: unknown }).redelivered) || 0;
        }
        await this.deliveries.settled();
        return {
          outcome: `ok: ${redelivered} redelivered`,
          location: `/webhooks?redelivered=${redelivered}`,
        };
      },
    );
  }

  @Get('webhooks/:id')
  delivery(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, (session) => {
      const detail = this.deliveries.get((request.params as Params).id, session.merchantId);
      if (detail === undefined) return this.unavailable(reply, session);
      if (detail === null) return this.notFound(reply, session);
      const notice =
        (request.query as Query).redelivered === '1'
          ? 'Redelivered: the delivery is pending again.'
          : undefined;
      return sendHtml(reply, 200, deliveryPage(session, detail, notice));
    });
  }

  @Get('webhooks/:id/redeliver')
  confirmRedeliver(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.operator(request, reply, (session) => {
      const detail = this.deliveries.get((request.params as Params).id);
      if (detail === undefined) return this.unavailable(reply, session);
      if (detail === null) return this.notFound(reply, session);
      const href = deliveryHref(detail.id);
      return sendHtml(
        reply,
        200,
        confirmPage(session, {
          title: `Redeliver ${detail.id}`,
          what: `The ${detail.eventType} notification of order ${detail.orderId} (merchant ${detail.merchantId}, now ${detail.status}) will be sent again to ${detail.url}, with a new round of retries.`,
          action: `${href}/redeliver`,
          button: 'Redeliver',
          back: href,
          section: 'webhooks',
        }),
      );
    });
  }

  @Post('webhooks/:id/redeliver')
  redeliver(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const id = (request.params as Params).id;
    return this.act(request, reply, 'redeliver', `delivery ${id}`, async () => {
      const answer = await postToGateway(
        this.gateway,
        `/operator/webhook/delivery/${encodeURIComponent(id)}/redeliver`,
        {},
      );
      if (answer.kind === 'answered' && answer.status === 202) {
        await this.deliveries.settled();
        return { outcome: 'ok', location: `${deliveryHref(id)}?redelivered=1` };
      }
      const why = explanationOf(answer);
      return { outcome: `failed: ${why}`, problem: `The gateway did not redeliver it (${why}).` };
    });
  }

  @Get('orders/:merchantId/:orderId/dispute')
  confirmDispute(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.operator(request, reply, (session) => {
      const { merchantId, orderId } = request.params as Params;
      const href = orderHref({ merchantId, orderId });
      return sendHtml(
        reply,
        200,
        confirmPage(session, {
          title: `Raise a test dispute on ${orderId}`,
          what: `The simulated acquirer will open a dispute on order ${orderId} of test merchant ${merchantId}, for the captured amount not disputed yet. The order becomes DISPUTED and the merchant is notified.`,
          action: `${href}/dispute`,
          button: 'Raise the dispute',
          back: href,
          section: 'orders',
        }),
      );
    });
  }

  @Post('orders/:merchantId/:orderId/dispute')
  dispute(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { merchantId, orderId } = request.params as Params;
    return this.act(
      request,
      reply,
      'raise test dispute',
      `order ${merchantId}/${orderId}`,
      async () => {
        const answer = await postToGateway(this.gateway, '/operator/acquirer/dispute', {
          merchantId,
          orderId,
        });
        if (answer.kind === 'answered' && (answer.status === 201 || answer.status === 200))
          return {
            outcome: answer.status === 201 ? 'ok' : 'ok: already recorded',
            location: orderHref({ merchantId, orderId }),
          };
        const why = explanationOf(answer);
        return { outcome: `failed: ${why}`, problem: `The gateway refused the dispute (${why}).` };
      },
    );
  }

  /**
   * A POST of an operator's action: anyone else, or a POST without the session's CSRF token or
   * from another origin, gets 403 and nothing is done. The outcome, refusals too, is audited.
   */
  private async act(
    request: FastifyRequest,
    reply: FastifyReply,
    action: string,
    target: string,
    run: () => Promise<Done>,
  ): Promise<FastifyReply> {
    const session = this.auth.sessionOf(request);
    if (!session) return redirect(reply, '/sign-in');
    const audit = (outcome: string) =>
      this.db.audit({
        username: session.username,
        role: session.role,
        action,
        target,
        outcome,
        client: request.ip,
      });
    const form = formOf(request);
    const refusal =
      session.role !== 'operator'
        ? 'refused: not an operator'
        : !this.auth.postAllowed(request, session, form)
          ? 'refused: no valid CSRF token or origin'
          : undefined;
    if (refusal) {
      audit(refusal);
      return sendHtml(
        reply,
        403,
        problemPage('Refused', `${refusal.slice(9)}: nothing was done.`, session),
      );
    }
    const done = await run();
    audit(done.outcome);
    if (done.location) return redirect(reply, done.location);
    return sendHtml(reply, 502, problemPage('Not done', done.problem ?? done.outcome, session));
  }

  /** A confirmation page: operators only (the others get 403, as their POST would). */
  private operator(
    request: FastifyRequest,
    reply: FastifyReply,
    render: (session: ConsoleSession) => FastifyReply,
  ): FastifyReply {
    return this.signedIn(request, reply, (session) =>
      session.role === 'operator'
        ? render(session)
        : sendHtml(reply, 403, problemPage('Refused', 'Only operators may do this.', session)),
    );
  }

  private signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    render: (session: ConsoleSession) => FastifyReply,
  ): FastifyReply {
    return withSession(this.auth, request, reply, render);
  }

  private unavailable(reply: FastifyReply, session: ConsoleSession): FastifyReply {
    return sendHtml(
      reply,
      503,
      problemPage(
        'Deliveries not available',
        "The gateway's webhook deliveries cannot be read now (is the gateway running? from the event store, the console reads them all again after it starts). Try again in a moment.",
        session,
      ),
    );
  }

  private notFound(reply: FastifyReply, session: ConsoleSession): FastifyReply {
    return sendHtml(reply, 404, problemPage('Not found', 'There is no such delivery.', session));
  }
}

/** The Webhooks form from the query; a merchant user's filter is always its own merchant. */
function filterOf(
  query: Query,
  session: Pick<ConsoleSession, 'merchantId' | 'role'>,
): DeliveryFilter {
  const status = DELIVERY_STATUSES.find((s): s is DeliveryStatus => s === query.status);
  const merchant = typeof query.merchant === 'string' ? query.merchant.trim() : '';
  return {
    ...(status ? { status } : {}),
    ...(session.merchantId ? {} : merchant && !merchantIdProblem(merchant) ? { merchant } : {}),
  };
}
