import 'reflect-metadata';
import { validateBody } from '@gateway/contract';
import { ENGINES } from './support/requests';

/** Behaviour notes, "Update Authorization": the new total in transaction.amount and .currency. */
describe.each(ENGINES)('UPDATE_AUTHORIZATION, %s engine', (engine) => {
  const body = {
    apiOperation: 'UPDATE_AUTHORIZATION',
    transaction: { amount: '150.00', currency: 'USD', reference: 'tip added' },
    customer: { email: 'joe@example.com' },
    order: { reference: 'table 7' },
    correlationId: 'c-1',
  };

  test.each([1, 39, 100])('is accepted at version %i', (version) =>
    expect(validateBody(version, body, engine)).toMatchObject({ ok: true }),
  );

  test.each(['amount', 'currency'])('transaction.%s is required', (member) => {
    const transaction: Record<string, unknown> = { ...body.transaction };
    delete transaction[member];
    expect(validateBody(100, { ...body, transaction }, engine)).toMatchObject({
      ok: false,
      error: { field: `transaction.${member}`, validationType: 'MISSING' },
    });
  });

  test.each([
    ['transaction.amount', { transaction: { ...body.transaction, amount: '1.0001' } }],
    ['transaction.currency', { transaction: { ...body.transaction, currency: 'usd' } }],
    ['sourceOfFunds', { sourceOfFunds: { type: 'CARD' } }],
    ['order.amount', { order: { amount: '150.00' } }],
    [
      'transaction.targetTransactionId',
      { transaction: { ...body.transaction, targetTransactionId: 't1' } },
    ],
  ])('%s is INVALID here', (field, change) =>
    expect(validateBody(100, { ...body, ...change }, engine)).toMatchObject({
      ok: false,
      error: { field, validationType: 'INVALID' },
    }),
  );
});
