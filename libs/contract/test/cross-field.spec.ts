import 'reflect-metadata';
import { authorizeBody, contractFor, ENGINES, requestsFor } from './support/requests';

const withOrder = (order: Record<string, unknown>) => ({
  ...authorizeBody(),
  order: { currency: 'USD', ...order },
});
const item = (quantity: string, unitPrice: string, extra: Record<string, string> = {}) => ({
  name: 'thing',
  quantity,
  unitPrice,
  ...extra,
});

describe.each(ENGINES)('%s engine', (engine) => {
  const { errorOf, valueOf } = requestsFor(engine);

  describe('order sub-totals', () => {
    test('sub-totals minus the discount must equal the amount', () => {
      valueOf(
        withOrder({
          amount: '73.5',
          itemAmount: '53.00',
          taxAmount: '5.5',
          shippingAndHandlingAmount: '20',
          discount: { amount: '5' },
        }),
      );
      expect(
        errorOf(
          withOrder({
            amount: '80.00',
            itemAmount: '53.00',
            taxAmount: '5.5',
            shippingAndHandlingAmount: '20',
            discount: { amount: '5' },
          }),
        ),
      ).toEqual({
        field: 'order.amount',
        validationType: 'INVALID',
        explanation:
          "Value '80.00' is invalid. It must equal order.itemAmount + order.taxAmount + order.shippingAndHandlingAmount - order.discount.amount, which is 73.500",
      });
    });

    test('only the sub-totals given count', () => {
      valueOf(withOrder({ amount: '12', taxAmount: '12.000' }));
      expect(errorOf(withOrder({ amount: '12', taxAmount: '12.001' })).field).toBe('order.amount');
    });

    test('a discount without sub-totals is not checked', () => {
      valueOf(withOrder({ amount: '12', discount: { amount: '99' } }));
    });

    test('a malformed sub-total is reported as itself, not as a wrong total', () => {
      expect(errorOf(withOrder({ amount: '12', itemAmount: '12.0001' }))).toMatchObject({
        field: 'order.itemAmount',
        validationType: 'INVALID',
      });
    });
  });

  describe('item totals', () => {
    test('itemAmount must equal the sum of quantity x unitPrice', () => {
      valueOf(
        withOrder({
          amount: '13',
          itemAmount: '13.000',
          item: [item('3', '2.50'), item('2', '3'), item('1', '-0.5')],
        }),
      );
      expect(
        errorOf(
          withOrder({
            amount: '14',
            itemAmount: '14',
            item: [item('3', '2.50'), item('2', '3'), item('1', '-0.5')],
          }),
        ),
      ).toEqual({
        field: 'order.itemAmount',
        validationType: 'INVALID',
        explanation:
          "Value '14' is invalid. It must equal the sum of quantity x unitPrice over order.item, which is 13.000",
      });
    });

    test('taxAmount must equal the sum of quantity x unitTaxAmount when items carry it', () => {
      valueOf(
        withOrder({
          amount: '1.5',
          taxAmount: '1.5',
          item: [item('3', '2', { unitTaxAmount: '0.5' })],
        }),
      );
      expect(
        errorOf(
          withOrder({
            amount: '1',
            taxAmount: '1',
            item: [item('3', '2', { unitTaxAmount: '0.5' })],
          }),
        ).field,
      ).toBe('order.taxAmount');
      // No item states a unit tax: the order-level tax stands alone.
      valueOf(withOrder({ amount: '1', taxAmount: '1', item: [item('3', '2')] }));
    });

    test('sums are exact with 16-digit quantities, where floating point would be off', () => {
      const items = [
        item('9999999999999999', '1.000'),
        item('9999999999999998', '-1.000'),
        item('1', '0.1'),
        item('2', '0.1'),
      ];
      valueOf(withOrder({ amount: '1.3', itemAmount: '1.3', item: items }));
      expect(errorOf(withOrder({ amount: '2.3', itemAmount: '2.3', item: items })).field).toBe(
        'order.itemAmount',
      );
    });

    test('items need name, quantity and unitPrice', () => {
      expect(
        errorOf(withOrder({ amount: '1', item: [item('1', '1'), { name: 'x', unitPrice: '1' }] })),
      ).toMatchObject({
        field: 'order.item[1].quantity',
        validationType: 'MISSING',
        explanation: "Field 'order.item[1].quantity' is required in each element of order.item",
      });
    });
  });

  describe('conditionally required groups and fields', () => {
    test('every ach field is required when ach is sent', () => {
      const body = authorizeBody();
      body.sourceOfFunds = {
        type: 'ACH',
        provided: {
          ach: {
            accountType: 'CONSUMER_SAVINGS',
            bankAccountHolder: 'Jane',
            routingNumber: '011000015',
          },
        },
      };
      expect(errorOf(body)).toEqual({
        field: 'sourceOfFunds.provided.ach.bankAccountNumber',
        validationType: 'MISSING',
        explanation:
          "Field 'sourceOfFunds.provided.ach.bankAccountNumber' is required when sourceOfFunds.provided.ach is supplied",
      });
    });

    test('3DSecure.enrollmentStatus is required when a 3DSecure group is sent', () => {
      expect(errorOf({ ...authorizeBody(), '3DSecure': { acsEci: '05' } })).toMatchObject({
        field: '3DSecure.enrollmentStatus',
        validationType: 'MISSING',
      });
      valueOf({ ...authorizeBody(), '3DSecure': { acsEci: '05', enrollmentStatus: 'ENROLLED' } });
    });

    test('VOID requires transaction.targetTransactionId', () => {
      const contract = contractFor('VOID', 40);
      expect(
        errorOf({ apiOperation: 'VOID', transaction: { reference: 'r' } }, contract),
      ).toMatchObject({
        field: 'transaction.targetTransactionId',
        validationType: 'MISSING',
      });
      expect(errorOf({ apiOperation: 'VOID' }, contract).field).toBe(
        'transaction.targetTransactionId',
      );
    });

    test('provider B needs its bank identifier', () => {
      const contract = contractFor('INITIATE_BROWSER_PAYMENT', 37);
      const body = {
        apiOperation: 'INITIATE_BROWSER_PAYMENT',
        browserPayment: { operation: 'PAY', returnUrl: 'https://shop.example.com/back' },
        order: { amount: '5', currency: 'EUR' },
        sourceOfFunds: { type: 'PROVIDER_B' },
      };
      expect(errorOf(body, contract)).toEqual({
        field: 'sourceOfFunds.provided.providerB.bankIdentifier',
        validationType: 'MISSING',
        explanation:
          "Field 'sourceOfFunds.provided.providerB.bankIdentifier' is required when sourceOfFunds.type is PROVIDER_B",
      });
      valueOf(
        {
          ...body,
          sourceOfFunds: {
            type: 'PROVIDER_B',
            provided: { providerB: { bankIdentifier: '37040044' } },
          },
        },
        contract,
      );
      // Another provider, with an empty providerB group: nothing is required.
      valueOf(
        { ...body, sourceOfFunds: { type: 'PROVIDER_D', provided: { providerB: {} } } },
        contract,
      );
    });

    test('device.browser is required when authentication.channel is PAYER_BROWSER', () => {
      const contract = contractFor('AUTHENTICATE_PAYER', 54);
      const body = {
        apiOperation: 'AUTHENTICATE_PAYER',
        authentication: { channel: 'PAYER_BROWSER' },
        device: { ipAddress: '10.0.0.1' },
      };
      expect(errorOf(body, contract)).toEqual({
        field: 'device.browser',
        validationType: 'MISSING',
        explanation:
          "Field 'device.browser' is required when authentication.channel is PAYER_BROWSER",
      });
      valueOf({ ...body, device: { browser: 'Mozilla/5.0' } }, contract);
      valueOf({ ...body, authentication: { channel: 'MERCHANT_REQUESTED' } }, contract);
    });

    test('an accepted currency conversion needs the payer amount and a payer currency other than the order currency', () => {
      const body: Record<string, any> = {
        ...authorizeBody(),
        currencyConversion: { uptake: 'ACCEPTED', payerCurrency: 'EUR' },
      };
      expect(errorOf(body)).toMatchObject({
        field: 'currencyConversion.payerAmount',
        validationType: 'MISSING',
      });
      body.currencyConversion = { uptake: 'ACCEPTED', payerAmount: '9.10', payerCurrency: 'USD' };
      expect(errorOf(body)).toEqual({
        field: 'currencyConversion.payerCurrency',
        validationType: 'INVALID',
        explanation: "Value 'USD' is invalid. It must differ from order.currency",
      });
    });

    test('Authorize needs a source of funds or a payment session', () => {
      const { sourceOfFunds: _, ...body } = authorizeBody();
      expect(errorOf(body)).toMatchObject({ field: 'sourceOfFunds', validationType: 'MISSING' });
      valueOf({ ...body, session: { id: 'SESSION0002345678901234567890123' } });
    });
  });
});
