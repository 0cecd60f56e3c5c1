import { resolveContract, validateBody, type GroupField } from '@gateway/contract';

/** Behaviour notes: CAPTURE, PAY, REFUND and UPDATE_AUTHORIZATION take the groups merchant clients send, with AUTHORIZE's rules. */
const authorize = resolveContract('AUTHORIZE', 100)!.body;
const orderOf = (body: GroupField) => body.fields.order as GroupField;

describe.each([
  ['CAPTURE', 100],
  ['PAY', 100],
  ['REFUND', 26],
  ['REFUND', 100],
  ['UPDATE_AUTHORIZATION', 1],
  ['UPDATE_AUTHORIZATION', 100],
])('%s at version %i', (apiOperation, version) => {
  const body = resolveContract(apiOperation, version)!.body;

  test.each(['billing', 'customer', 'device', 'shipping'])(
    '%s is the very group AUTHORIZE declares',
    (group) => expect(body.fields[group]).toBe(authorize.fields[group]),
  );

  test.each(['reference', 'description', 'custom'])('order.%s is AUTHORIZE’s rule', (name) =>
    expect(orderOf(body).fields[name]).toBe(orderOf(authorize).fields[name]),
  );

  test('transaction.reference and the general fields are accepted', () => {
    const transaction = body.fields.transaction as GroupField;
    expect(transaction.fields.reference).toBeDefined();
    expect(body.fields.correlationId).toBe(authorize.fields.correlationId);
    expect(body.fields.session).toBe(authorize.fields.session);
  });
});

test('a CAPTURE with customer, device and billing is valid; a member no operation names is not', () => {
  const capture = {
    apiOperation: 'CAPTURE',
    transaction: { amount: '1.00', currency: 'USD' },
    customer: { email: 'joe@example.com', phone: '555' },
    device: { ipAddress: '10.0.0.1' },
    billing: { address: { street: 'Main St', street2: null } },
  };
  expect(validateBody(100, capture).ok).toBe(true);
  expect(validateBody(100, { ...capture, customer: { nickname: 'Bob' } })).toMatchObject({
    ok: false,
    error: { field: 'customer.nickname', validationType: 'INVALID' },
  });
});
