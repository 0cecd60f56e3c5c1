import { ApiError } from '@gateway/contract';
import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { GatewayClock } from '../clock/gateway-clock';
import { parseDuration } from '../config/acquirer-later.config';
import { OperatorGuard } from './operator.guard';

/**
 * The gateway's clock, for tests and demonstrations (docs/janitor.md): `GET /operator/clock`
 * reads it; `POST /operator/clock {"advance":"1d"}` moves a manual clock (GATEWAY_CLOCK=manual)
 * forward and answers the new time, after which whatever waits on time looks again at once.
 */
@Controller('operator/clock')
@UseGuards(OperatorGuard)
export class ClockHttpController {
  constructor(private readonly clock: GatewayClock) {}

  @Get()
  read() {
    return { mode: this.clock.mode, time: this.clock.now().toISOString() };
  }

  @Post()
  @HttpCode(200)
  advance(@Body() body: unknown) {
    const raw = (body as { advance?: unknown } | null | undefined)?.advance;
    if (raw === undefined)
      throw ApiError.invalid('Give advance: a duration such as 30s or 1d', 'advance', 'MISSING');
    const ms = typeof raw === 'string' ? parseDuration(raw) : undefined;
    if (ms === undefined)
      throw ApiError.invalid(
        'advance must be a duration such as 200ms, 30s, 5m, 1h or 1d',
        'advance',
      );
    if (this.clock.mode !== 'manual')
      throw ApiError.invalid(
        'The clock moves only when the gateway runs with GATEWAY_CLOCK=manual',
      );
    this.clock.advance(ms);
    return this.read();
  }
}
