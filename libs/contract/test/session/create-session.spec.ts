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

  it("refuses hosted checkout by the version's name for it, naming apiOperation", () => {
    for (const [version, apiOperation] of [
      [63, 'INITIATE_CHECKOUT'],
      [100, 'INITIATE_CHECKOUT'],
      [62, 'CREATE_CHECKOUT_SESSION'],
      [50, 'CREATE_CHECKOUT_SESSION'],
    ] as const) {
      const error = refusal(version, { apiOperation, order: { id: 'o-1' } });
      expect(error).toEqual({
        field: 'apiOperation',
        validationType: 'INVALID',
        explanation: expect.stringMatching(
          new RegExp(`^Value '${apiOperation}' is invalid\\. Hosted checkout is not offered`),
        ),
      });
    }
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
      expect(error?.explanation).toMatch(/Create Session takes no apiOperation/);
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
