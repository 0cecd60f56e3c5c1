import { validateSessionCreate } from '../../src';

describe('Create Session body', () => {
  const refusal = (version: number, body: unknown) => {
    const result = validateSessionCreate(version, body);
    return result.ok ? undefined : result.error;
  };

  it('takes the empty object and the transient correlationId', () => {
    expect(validateSessionCreate(100, {}).ok).toBe(true);
    expect(validateSessionCreate(100, { correlationId: 'c-1' }).ok).toBe(true);
  });

  const checkout = (apiOperation: string) => ({
    apiOperation,
    interaction: {
      operation: 'PURCHASE',
      returnUrl: 'https://shop.example/return',
      merchant: { name: 'Example Shop' },
    },
    order: { id: 'o-1', amount: '49.90', currency: 'USD' },
  });

  it("takes a checkout session by the version's name for it", () => {
    for (const [version, apiOperation] of [
      [63, 'INITIATE_CHECKOUT'],
      [100, 'INITIATE_CHECKOUT'],
      [62, 'CREATE_CHECKOUT_SESSION'],
      [50, 'CREATE_CHECKOUT_SESSION'],
    ] as const) {
      const result = validateSessionCreate(version, checkout(apiOperation));
      expect(result.ok && result.value.apiOperation).toBe(apiOperation);
    }
  });

  it('refuses a checkout session without what the page needs, naming the field', () => {
    const { order: _order, ...noOrder } = checkout('INITIATE_CHECKOUT');
    expect(refusal(100, noOrder)).toEqual({
      field: 'order.amount',
      validationType: 'MISSING',
      explanation: "Field 'order.amount' is required",
    });
    const plain = { ...checkout('INITIATE_CHECKOUT') };
    const http = {
      ...plain,
      interaction: { ...plain.interaction, returnUrl: 'http://shop.example/r' },
    };
    expect(refusal(100, http)?.field).toBe('interaction.returnUrl');
    const other = { ...plain, interaction: { ...plain.interaction, operation: 'REFUND' } };
    expect(refusal(100, other)?.field).toBe('interaction.operation');
    expect(refusal(100, { ...plain, session: { id: 'x' } })?.field).toBe('session');
  });

  it('refuses any other apiOperation, a checkout name of another version included', () => {
    for (const [version, apiOperation] of [
      [100, 'CREATE_CHECKOUT_SESSION'],
      [62, 'INITIATE_CHECKOUT'],
      [100, 'CREATE_SESSION'],
      [100, 42],
    ] as const) {
      const error = refusal(version, { apiOperation });
      expect(error?.field).toBe('apiOperation');
      expect(error?.validationType).toBe('INVALID');
      expect(error?.explanation).toMatch(/Create Session takes no apiOperation but/);
    }
  });

  it('refuses an unknown field by its path, and a body that is not an object', () => {
    expect(refusal(100, { interaction: { operation: 'PURCHASE' } })).toEqual({
      field: 'interaction',
      validationType: 'INVALID',
      explanation: "Field 'interaction' is not part of the CREATE_SESSION request",
    });
    expect(refusal(100, { session: { authenticationLimit: 5 } })?.field).toBe('session');
    expect(refusal(100, [])).toEqual({ explanation: 'The request body must be a JSON object' });
  });
});
