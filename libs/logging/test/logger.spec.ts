import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';
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
    expect(redactCardLikeRuns('card 5123 4500-0000.0008 here')).toBe('card [redacted] here');
  });

  it('takes card numbers in any spacing out of every line, request lines included', () => {
    const { logger, text } = capture();
    const requestLog = logger.child({}, { redact: [] }); // as the request observer logs
    requestLog.info({ reqId: '5123-4500-0000-0008', correlationId: 'c 4508 7500 1574 1019' });
    logger.warn({ detail: { note: '5123.4500.0000.0008' } }, 'failed for 2223 0000 0000 0007');
    logger.error(new Error('bad value "3718-816344-98004"'));
    const lines = text().trim().split('\n');
    expect(lines).toHaveLength(3);
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed[0]).toMatchObject({ reqId: '[redacted]', correlationId: 'c [redacted]' });
    expect(parsed[1]).toMatchObject({
      detail: { note: '[redacted]' },
      msg: 'failed for [redacted]',
    });
    expect(text()).not.toMatch(/5123|4508|2223|3718/);
    expect(typeof parsed[0].time).toBe('number');
  });
});
