import {
  decide,
  evolve,
  initialState,
  OrderRejection,
  type DeciderCommand,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';

/** The order of a folded state, for assertions on it. */
export function orderOf(state: OrderState) {
  if (state.kind !== 'Order') throw new Error('no order');
  return state;
}

/**
 * Data-only specs for the Order decider:
 *   given([created, authorized]).when(capture).then([captured])
 *   given([created, authorized]).when(tooBigCapture).thenRejects('transaction.amount')
 */
export function given(history: readonly OrderEvent[]) {
  const state = history.reduce(evolve, initialState());
  return {
    when(command: DeciderCommand) {
      return {
        then(expected: readonly OrderEvent[]) {
          expect(decide(command, state)).toEqual(expected);
        },
        thenRejects(field: string, validationType: 'INVALID' | 'MISSING' = 'INVALID') {
          let thrown: unknown;
          try {
            decide(command, state);
          } catch (e) {
            thrown = e;
          }
          expect(thrown).toBeInstanceOf(OrderRejection);
          expect(thrown).toMatchObject({ field, validationType });
        },
      };
    },
  };
}
