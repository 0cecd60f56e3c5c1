import {
  decide,
  evolve,
  initialState,
  OrderRejection,
  type OrderCommand,
  type OrderEvent,
} from '@gateway/domain';

/**
 * Data-only specs for the Order decider:
 *   given([created, authorized]).when(capture).then([captured])
 *   given([created, authorized]).when(tooBigCapture).thenRejects('transaction.amount')
 */
export function given(history: readonly OrderEvent[]) {
  const state = history.reduce(evolve, initialState());
  return {
    when(command: OrderCommand) {
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
