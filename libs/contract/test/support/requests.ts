import {
  resolveContract,
  validateRequest,
  type FieldError,
  type OperationContract,
} from '@gateway/contract';

/** A conforming AUTHORIZE body to vary in hand-written tests. */
export function authorizeBody(): Record<string, any> {
  return {
    apiOperation: 'AUTHORIZE',
    order: { amount: '10.00', currency: 'USD' },
    sourceOfFunds: {
      type: 'CARD',
      provided: {
        card: {
          number: '5123450000000008',
          expiry: { month: '1', year: '39' },
          securityCode: '100',
        },
      },
    },
  };
}

export function contractFor(apiOperation: string, version: number): OperationContract {
  const contract = resolveContract(apiOperation, version);
  if (!contract) throw new Error(`no contract for ${apiOperation}`);
  return contract;
}

/** The error for a body, failing the test if it was accepted. */
export function errorOf(body: unknown, contract = contractFor('AUTHORIZE', 39)): FieldError {
  const result = validateRequest(contract, body);
  if (result.ok) throw new Error('expected the body to be rejected');
  return result.error;
}

export function valueOf(
  body: unknown,
  contract = contractFor('AUTHORIZE', 39),
): Record<string, unknown> {
  const result = validateRequest(contract, body);
  if (!result.ok)
    throw new Error(`expected the body to be accepted: ${JSON.stringify(result.error)}`);
  return result.value;
}
