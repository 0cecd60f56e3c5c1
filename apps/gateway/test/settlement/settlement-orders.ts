import {
  decide,
  evolveAll,
  initialState,
  type DeciderCommand,
  type Order,
  type ProcessorOutcome,
} from '@gateway/domain';
import {
  authorize,
  capture,
  pay,
  refund,
  voidTx,
} from '../../../../libs/domain/test/order.fixtures';

export { authorize, capture, pay, refund, voidTx };

/** An approval as the simulated acquirer gives it: its batch, its reference, the card's funding. */
export const settled = (amount: number, { batch = 20261122 } = {}): ProcessorOutcome => ({
  gatewayCode: 'APPROVED',
  approvedAmount: amount,
  details: {
    response: { acquirerCode: '00' },
    transaction: { acquirer: { id: 'SIM', transactionId: `acq-${amount}-${batch}`, batch } },
  },
});

/** A card as recorded, of this funding method. */
export const card = (fundingMethod = 'CREDIT') => ({
  type: 'CARD',
  provided: {
    card: { number: '512345xxxxxx0008', expiry: { month: '1', year: '39' }, fundingMethod },
  },
});

/** The order the commands make, decided and folded as the gateway would. */
export function orderOf(...commands: DeciderCommand[]): Order {
  const state = commands.reduce(
    (folded, command) => evolveAll(folded, decide(command, folded)),
    initialState(),
  );
  if (state.kind !== 'Order') throw new Error('no order');
  return state;
}

/** The order's first transaction echoes order.reference. */
export const withReference = (reference: string) => ({ echo: { order: { reference } } });
