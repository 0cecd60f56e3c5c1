import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendHtml, withSession } from '../console.controller';
import { problemPage } from '../pages/layout';
import { ConsoleAuth } from '../sessions/console-auth';
import { ConsoleDb, type ConsoleSession } from '../sessions/console-db';
import { dailyCsv, exceptionsCsv } from './finance-csv';
import { FinanceUnavailable } from './finance-data';
import { FinanceThread } from './finance-thread';
import { parseAsOf, parseDailyForm } from './finance-forms';
import { dailyPage, reconcilePage, trialBalancePage } from './finance.page';

type Query = Record<string, unknown>;

/**
 * The Finance pages (docs/console.md, "Finance"). Daily totals are scoped: a merchant user's are
 * its merchant's. The trial balance and the reconciliation have no merchant scope (the books'
 * accounts and the acquirer's files cover every merchant): merchant users are refused them (403).
 * Every answer is read-only; reconciliations and downloads are written to the audit.
 */
@Controller('finance')
export class FinanceController {
  constructor(
    @Inject(ConsoleAuth) private readonly auth: ConsoleAuth,
    @Inject(ConsoleDb) private readonly db: ConsoleDb,
    @Inject(FinanceThread) private readonly finance: FinanceThread,
  ) {}

  @Get()
  daily(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, false, async (session) => {
      const form = parseDailyForm(request.query as Query, today());
      if (form.errors.length) return sendHtml(reply, 400, dailyPage(session, form, undefined));
      const rows = await this.finance.daily({ from: form.from, to: form.to, ...scope(session) });
      return sendHtml(reply, 200, dailyPage(session, form, rows));
    });
  }

  @Get('daily.csv')
  dailyDownload(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, false, async (session) => {
      const form = parseDailyForm(request.query as Query, today());
      if (form.errors.length) return sendHtml(reply, 400, dailyPage(session, form, undefined));
      const rows = await this.finance.daily({ from: form.from, to: form.to, ...scope(session) });
      this.db.auditAction(session, request.ip, 'download daily CSV', `${form.from}..${form.to}`);
      return csv(reply, `daily-${form.from}-${form.to}.csv`, dailyCsv(rows));
    });
  }

  @Get('trial-balance')
  trialBalance(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, true, async (session) => {
      const { asOf, text, error } = parseAsOf((request.query as Query).asOf, now());
      if (error) return sendHtml(reply, 400, trialBalancePage(session, text, error, undefined));
      const report = await this.finance.trialBalance(asOf);
      return sendHtml(reply, 200, trialBalancePage(session, text, undefined, report));
    });
  }

  @Get('reconcile')
  reconcile(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, true, async (session) => {
      const run = (request.query as Query).run === '1';
      const result = run ? await this.finance.reconcile() : undefined;
      if (result)
        this.db.auditAction(
          session,
          request.ip,
          'reconcile',
          `${result.exceptions.length} exceptions`,
        );
      // After a run, the files it read (the worker listed them); else the directory's, listed here.
      const files = result?.files ?? this.finance.settlementFiles();
      const body = reconcilePage(session, this.finance.settlementDir, files, result);
      return sendHtml(reply, 200, body);
    });
  }

  @Get('reconcile.csv')
  reconcileDownload(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.signedIn(request, reply, true, async (session) => {
      const { exceptions } = await this.finance.reconcile();
      this.db.auditAction(
        session,
        request.ip,
        'download reconciliation CSV',
        `${exceptions.length} exceptions`,
      );
      return csv(reply, 'reconciliation-exceptions.csv', exceptionsCsv(exceptions));
    });
  }

  /**
   * Runs `render` for a signed-in user allowed the page (`unscoped`: not merchant users); anyone
   * else goes to the sign-in page. The log or a settlement file unreadable: a 503 saying which.
   */
  private async signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    unscoped: boolean,
    render: (session: ConsoleSession) => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    return withSession(this.auth, request, reply, async (session) => {
      if (unscoped && session.merchantId)
        return sendHtml(
          reply,
          403,
          problemPage(
            'Not for merchant users',
            'This page covers every merchant: the daily totals show your own.',
            session,
          ),
        );
      try {
        return await render(session);
      } catch (error) {
        if (!(error instanceof FinanceUnavailable)) throw error;
        return sendHtml(reply, 503, problemPage('Finance not available', error.message, session));
      }
    });
  }
}

function scope(session: ConsoleSession): { merchant?: string } {
  return session.merchantId ? { merchant: session.merchantId } : {};
}

function csv(reply: FastifyReply, name: string, body: string): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8; header=present')
    .header('content-disposition', `attachment; filename="${name}"`)
    .send(body);
}

const now = () => new Date().toISOString();
const today = () => now().slice(0, 10);
