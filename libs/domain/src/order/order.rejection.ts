/**
 * A request the order's current state does not allow. It names the field at fault so the gateway
 * can answer the spec's INVALID_REQUEST error; nothing is stored for it.
 */
export class OrderRejection extends Error {
  constructor(
    readonly field: string,
    readonly explanation: string,
    readonly validationType: 'INVALID' | 'MISSING' = 'INVALID',
  ) {
    super(explanation);
    this.name = 'OrderRejection';
  }
}
