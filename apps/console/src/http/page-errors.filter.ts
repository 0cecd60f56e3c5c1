import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { sendHtml } from '../console.controller';
import { problemPage } from '../pages/layout';

/** Errors as pages, never a stack trace or JSON: 404 for unknown paths, 500 for the rest. */
@Catch()
export class PageErrorsFilter implements ExceptionFilter {
  constructor(private readonly log: (message: string) => void = console.error) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const status = error instanceof HttpException ? error.getStatus() : 500;
    if (status >= 500) this.log(`console error: ${(error as Error)?.stack ?? String(error)}`);
    const [title, message] =
      status === 404
        ? ['Not found', 'There is no such page.']
        : status < 500
          ? ['Refused', 'The request was not understood.']
          : ['Something went wrong', 'The console could not answer. Try again in a moment.'];
    void sendHtml(reply, status, problemPage(title, message));
  }
}
