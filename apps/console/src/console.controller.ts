import type { OrderSearch, OrderSearchPage } from '@gateway/projections';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleAuth } from './sessions/console-auth';
import { ConsoleDb, type ConsoleSession } from './sessions/console-db';
import { OrderPages } from './orders/order-pages';
import { ReadModel } from './read-model';
import { problemPage } from './pages/layout';
import { auditPage, disputesPage, unknownPage } from './pages/lists.page';
import { orderPage } from './pages/order.page';
import {
  decodeCursor,
  encodeCursor,
  ordersPage,
  PAGE_SIZE,
  parseSearch,
} from './pages/orders.page';
import { signInPage } from './pages/sign-in.page';
import { STYLESHEET } from './pages/stylesheet';
import { isUsername } from './users/console-users';

type Query = Record<string, unknown>;

export function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(body);
}

/** 303: after a POST the browser GETs the next page. */
export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.status(303).header('location', location).send();
}

/** Runs `render` for a signed-in user; anyone else goes to the sign-in page. */
export function withSession<R>(
  auth: ConsoleAuth,
  request: FastifyRequest,
  reply: FastifyReply,
  render: (session: ConsoleSession) => R,
): R | FastifyReply {
  const session = auth.sessionOf(request);
  return session ? render(session) : redirect(reply, '/sign-in');
}

/**
 * Every page of the console. GETs only read (the read model, console.db's audit); the POSTs are
 * sign-in and sign-out, each checked for its CSRF token and origin and written to the audit.
 */
@Controller()
export class ConsoleController {
  constructor(
    @Inject(ConsoleAuth) private readonly auth: ConsoleAuth,
    @Inject(ConsoleDb) private readonly db: ConsoleDb,
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(OrderPages) private readonly orderPages: OrderPages,
  ) {}

  @Get('console.css')
  stylesheet(@Res() reply: FastifyReply) {
    return reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'max-age=300')
      .send(STYLESHEET);
  }

  @Get()
  home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return redirect(reply, this.auth.sessionOf(request) ? '/orders' : '/sign-in');
  }

  @Get('sign-in')
  signInForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (this.auth.sessionOf(request)) return redirect(reply, '/orders');
    return sendHtml(reply, 200, signInPage(this.auth.signInToken(request, reply)));
  }

  @Post('sign-in')
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const form = formOf(request);
    const username = (form.get('username') ?? '').trim();
    const audit = (outcome: string, role = '') =>
      this.db.audit({
        username: isUsername(username) ? username : '(not a user name)',
        role,
        action: 'sign-in',
        target: '',
        outcome,
        client: request.ip,
      });
    if (!this.auth.signInAllowed(request, form)) {
      audit('refused: no valid CSRF token or origin');
      return sendHtml(
        reply,
        403,
        problemPage('Refused', 'The form had expired: reload the sign-in page and try again.'),
      );
    }
    const result = await this.auth.signIn(username, form.get('password') ?? '', request.ip);
    const again = (status: number, problem: string) =>
      sendHtml(reply, status, signInPage(this.auth.signInToken(request, reply), problem, username));
    if (result.kind === 'locked') {
      audit('locked out');
      void reply.header('retry-after', String(result.retryAfter));
      return again(429, `Too many failed sign-ins: try again in ${minutes(result.retryAfter)}.`);
    }
    if (result.kind === 'refused') {
      audit('failed');
      return again(401, 'The user name or the password is wrong.');
    }
    audit('ok', result.session.role);
    this.auth.signOut(request); // a session the browser held before ends: one per sign-in
    void reply.header('set-cookie', this.auth.signedInCookies(result.sessionId));
    return redirect(reply, '/orders');
  }

  @Post('sign-out')
  signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const session = this.auth.sessionOf(request);
    if (!session) return redirect(reply, '/sign-in');
    if (!this.auth.postAllowed(request, session, formOf(request))) {
      this.db.auditAction(
        session,
        request.ip,
        'sign-out',
        '',
        'refused: no valid CSRF token or origin',
      );
      return sendHtml(
        reply,
        403,
        problemPage(
          'Refused',
          'The request did not come from a console page: nothing was done.',
          session,
        ),
      );
    }
    void reply.header('set-cookie', this.auth.signOut(request));
    this.db.auditAction(session, request.ip, 'sign-out', '');
    return redirect(reply, '/sign-in');
  }

  @Get('orders')
  orders(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return withSession(this.auth, request, reply, (session) => {
      const parsed = parseSearch(request.query as Query, session);
      const result = parsed.search ? this.search(reply, session, parsed.search) : undefined;
      if (result === null) return reply;
      return sendHtml(reply, parsed.errors.length ? 400 : 200, ordersPage(session, parsed, result));
    });
  }

  @Get('orders/:merchantId/:orderId')
  order(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return withSession(this.auth, request, reply, async (session) => {
      const { merchantId, orderId } = request.params as Record<string, string>;
      // Another merchant's order is not found, as a missing one: its id is not confirmed.
      if (session.merchantId && session.merchantId !== merchantId)
        return this.notFound(reply, session);
      const { asOf, part } = request.query as Query;
      const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
      const result = await this.orderPages.load(merchantId, orderId, text(asOf), text(part));
      switch (result.kind) {
        case 'order':
          return sendHtml(reply, 200, orderPage(session, result.model));
        case 'not-found':
          return this.notFound(reply, session);
        case 'bad-point':
          return sendHtml(
            reply,
            400,
            problemPage('No such event', 'The order has no event at that point.', session),
          );
        case 'unavailable':
          return sendHtml(
            reply,
            503,
            problemPage(
              'Order not available',
              "The gateway's event store cannot be read now (is the gateway running?). Try again in a moment.",
              session,
            ),
          );
      }
    });
  }

  @Get('disputes')
  disputes(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return withSession(this.auth, request, reply, (session) => {
      const scope = {
        ...(session.merchantId ? { merchantId: session.merchantId } : {}),
        limit: 50,
      };
      const open = this.search(reply, session, { ...scope, status: 'DISPUTED' });
      const charged =
        open && this.search(reply, session, { ...scope, status: 'CHARGEBACK_PROCESSED' });
      if (!open || !charged) return reply;
      return sendHtml(reply, 200, disputesPage(session, open, charged));
    });
  }

  @Get('unknown')
  unknown(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return withSession(this.auth, request, reply, (session) => {
      const search: OrderSearch = {
        ...(session.merchantId ? { merchantId: session.merchantId } : {}),
        unknownOnly: true,
        limit: PAGE_SIZE,
        ...(cursorOf(request.query as Query) ?? {}),
      };
      const result = this.search(reply, session, search);
      if (!result) return reply;
      const next = result.next ? `/unknown?after=${encodeCursor(result.next)}` : undefined;
      return sendHtml(reply, 200, unknownPage(session, result, next));
    });
  }

  @Get('audit')
  auditTrail(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return withSession(this.auth, request, reply, (session) => {
      const before = Number((request.query as Query).before);
      const own = session.role === 'merchant' ? session.username : undefined;
      const entries = this.db.auditPage(
        PAGE_SIZE + 1,
        Number.isSafeInteger(before) ? before : undefined,
        own,
      );
      const next =
        entries.length > PAGE_SIZE ? `/audit?before=${entries[PAGE_SIZE - 1].id}` : undefined;
      return sendHtml(reply, 200, auditPage(session, entries.slice(0, PAGE_SIZE), next));
    });
  }

  /** A search of the read model; null, the reply sent, when the gateway has not made it yet. */
  private search(
    reply: FastifyReply,
    session: ConsoleSession,
    search: OrderSearch,
  ): OrderSearchPage | null {
    const result = this.readModel.search(search);
    if (result) return result;
    sendHtml(
      reply,
      503,
      problemPage(
        'Orders not available yet',
        'The gateway has not written its order read model yet (is it running?). Try again in a moment.',
        session,
      ),
    );
    return null;
  }

  private notFound(reply: FastifyReply, session: ConsoleSession): FastifyReply {
    return sendHtml(reply, 404, problemPage('Not found', 'There is no such order.', session));
  }
}

/** The urlencoded body (parsed by the content-type parser in main.ts), else empty. */
export function formOf(request: FastifyRequest): URLSearchParams {
  return request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
}

function cursorOf(query: Query): Pick<OrderSearch, 'after'> | undefined {
  const after = decodeCursor(query.after);
  return after ? { after } : undefined;
}

function minutes(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}
