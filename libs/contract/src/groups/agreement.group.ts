import { group } from '../model/compose';

/** A series of payments (recurring, installment, unscheduled) under one agreement. */
export const agreement = group('Payment agreement', {
  expiryDate: { kind: 'date', description: 'Date the agreement ends' },
  id: {
    kind: 'string',
    min: 1,
    max: 100,
    description: 'Agreement id; required when stored card details are reused for the series',
  },
  recurring: group('Recurring payment terms', {
    daysBetweenPayments: {
      kind: 'integer',
      min: 1,
      max: 999,
      description: 'Days between two payments',
    },
  }),
  type: {
    kind: 'enum',
    values: ['INSTALLMENT', 'OTHER', 'RECURRING', 'UNSCHEDULED'],
    description: 'Kind of agreement, given on the first payment; OTHER by default',
  },
});
