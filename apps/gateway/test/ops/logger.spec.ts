import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/gateway.config';
import { createLogger } from '../../src/ops/logger';
import { redactCardLikeRuns } from '@gateway/domain';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('info', stream), text: () => lines.join('') };
}

describe('the JSON log', () => {
  it('redacts secrets and card data wherever an object carries them', () => {
    const { logger, text } = capture();
    logger.info({
      req: { headers: { authorization: 'Basic c2VjcmV0', cookie: 'session=s3cr3t' } },
      body: {
        sourceOfFunds: {
          provided: {
            card: { number: '5123450000000008', securityCode: '739', pin: '4321' },
            ach: { bankAccountNumber: '000123456789' },
          },
        },
      },
      merchant: { password: 'pw-123456', notificationSecret: 'notify-987654', iban: 'GB82WEST' },
      sessionKey: 'k-13579',
    });
    const line = text();
    for (const secret of [
      'c2VjcmV0',
      's3cr3t',
      '5123450000000008',
      '"739"',
      '4321',
      '000123456789',
      'pw-123456',
      'notify-987654',
      'GB82WEST',
      'k-13579',
    ])
      expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('is one JSON object per line with the level named', () => {
    const { logger, text } = capture();
    logger.info({ reqId: 'r-1' }, 'request');
    expect(JSON.parse(text())).toMatchObject({ level: 'info', reqId: 'r-1', msg: 'request' });
  });

  it('takes out card-number-length digit runs from free text', () => {
    expect(redactCardLikeRuns('Unexpected token in "5123450000000008" at 12')).toBe(
      'Unexpected token in "[redacted]" at 12',
    );
  });

  it('level comes from GATEWAY_LOG_LEVEL, info by default, and a bad one stops start-up', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ GATEWAY_LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(() => loadConfig({ GATEWAY_LOG_LEVEL: 'loud' })).toThrow(/GATEWAY_LOG_LEVEL='loud'/);
  });
});
