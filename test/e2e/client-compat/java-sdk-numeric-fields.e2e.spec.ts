import { orderIds, useGateway } from '../../support/gateway-process';
import { authenticatePayerBody, initiateAuthenticationBody } from '../../support/three-d-secure';

/**
 * A Java SDK whose request model holds amounts as BigDecimal and card fields as long numbers
 * (issue 14, point 4): Jackson writes them as JSON numbers, keeping the BigDecimal's scale
 * (`100.00`). The gateway judges each number at a decimal, digits or integer field by its literal
 * as written, never through a double. The bodies below are sent as raw text, as Jackson writes
 * them: `JSON.stringify` would already have lost what is under test.
 */
const under = useGateway();
const newOrder = orderIds('java-sdk');

const card = (number: string) =>
  `{"number":${number},"expiry":{"month":1,"year":39},"securityCode":100}`;

const authorize = (amount: string, number = '5123450000000008') =>
  `{"apiOperation":"AUTHORIZE","order":{"amount":${amount},"currency":"USD"},` +
  `"sourceOfFunds":{"type":"CARD","provided":{"card":${card(number)}}}}`;

/** A Luhn-valid Mastercard number of 19 digits: past 2^53, a double would round its last ones. */
function nineteenDigitCard(): string {
  const body = '512345000000000123';
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return body + String((10 - (sum % 10)) % 10);
}

describe('a Java SDK sending amounts and card fields as JSON numbers', () => {
  it('AUTHORIZE with "amount": 100.00 and "number": 5123450000000008 is approved', async () => {
    const order = newOrder();
    const authorized = await under.api.put(`/order/${order}/transaction/1`, authorize('100.00'));
    expect(authorized.status).toBe(201);
    expect(authorized.body).toMatchObject({
      result: 'SUCCESS',
      order: { amount: 100, totalAuthorizedAmount: 100 },
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
      transaction: { amount: 100 },
    });

    const captured = await under.api.put(
      `/order/${order}/transaction/2`,
      '{"apiOperation":"CAPTURE","transaction":{"amount":60.5,"currency":"USD"}}',
    );
    expect(captured.status).toBe(201);
    expect(captured.body.order.totalCapturedAmount).toBe(60.5);
  });

  it('a card number a double would round is kept to its last digit', async () => {
    const number = nineteenDigitCard();
    expect(String(JSON.parse(number))).not.toBe(number);
    const authorized = await under.api.put(
      `/order/${newOrder()}/transaction/1`,
      authorize('1.00', number),
    );
    expect(authorized.status).toBe(201);
    expect(authorized.body.response.gatewayCode).toBe('APPROVED');
    expect(authorized.body.sourceOfFunds.provided.card.number).toBe(
      `512345${'x'.repeat(9)}${number.slice(-4)}`,
    );
  });

  it('a retry is the same request whether the amount is written 100.00 or "100.00"; 100.0 is another', async () => {
    const order = newOrder();
    const first = await under.api.put(`/order/${order}/transaction/1`, authorize('100.00'));
    expect(first.status).toBe(201);
    const again = await under.api.put(`/order/${order}/transaction/1`, authorize('100.00'));
    expect(again.text).toBe(first.text);
    const asStrings = await under.api.put(
      `/order/${order}/transaction/1`,
      authorize('"100.00"', '"5123450000000008"').replace(
        card('"5123450000000008"'),
        '{"number":"5123450000000008","expiry":{"month":"1","year":"39"},"securityCode":"100"}',
      ),
    );
    expect(asStrings.text).toBe(first.text);
    const otherLiteral = await under.api.put(`/order/${order}/transaction/1`, authorize('100.0'));
    expect(otherLiteral.status).toBe(400);
    expect(otherLiteral.body.error).toMatchObject({ field: 'transaction.id' });
  });

  it.each([
    [
      '1e2',
      "Value '1e2' is invalid. It must be a decimal number made of the characters 0-9 and '.'",
    ],
    ['-5', "Value '-5' is invalid. It must be a decimal number made of the characters 0-9 and '.'"],
    [
      '1.2345',
      "Value '1.2345' is invalid. It has 4 decimal places, but at most 3 are allowed (amounts are held in thousandths)",
    ],
  ])(
    '"amount": %s is refused as the string would be, naming order.amount',
    async (literal, explanation) => {
      const order = newOrder();
      const refused = await under.api.put(`/order/${order}/transaction/1`, authorize(literal));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({
        cause: 'INVALID_REQUEST',
        explanation,
        field: 'order.amount',
        validationType: 'INVALID',
      });
      expect((await under.api.get(`/order/${order}`)).status).toBe(404);
    },
  );

  it('a number in a field that is no decimal, digits or integer field stays refused', async () => {
    const refused = await under.api.put(
      `/order/${newOrder()}/transaction/1`,
      authorize('100.00').replace('"currency":"USD"', '"currency":840'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      field: 'order.currency',
      validationType: 'INVALID',
    });
  });

  it('card numbers sent as numbers are never echoed: not in errors, not in the log', async () => {
    const number = nineteenDigitCard();
    const inReference = await under.api.put(
      `/order/${newOrder()}/transaction/1`,
      authorize('1.00').replace('"currency":"USD"', `"currency":"USD","reference":${number}`),
    );
    expect(inReference.status).toBe(400);
    expect(inReference.body.error).toEqual({
      cause: 'INVALID_REQUEST',
      explanation: 'Value is invalid. It must be a string',
      field: 'order.reference',
      validationType: 'INVALID',
    });
    const tooLong = await under.api.put(
      `/order/${newOrder()}/transaction/1`,
      authorize('1.00', `${number}1`),
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({
      field: 'sourceOfFunds.provided.card.number',
      explanation: 'Value is invalid. Length is 20 characters, but must be less than 20',
    });
    const asAmount = await under.api.put(`/order/${newOrder()}/transaction/1`, authorize(number));
    expect(asAmount.status).toBe(400);
    for (const text of [inReference.text, tooLong.text, asAmount.text, under.gateway.output()])
      expect(text).not.toMatch(new RegExp(`${number.slice(0, 12)}|${number.slice(-12)}`));
  });
});

describe('integer fields, as a number or a string of digits', () => {
  const withDays = (days: string) =>
    authorize('100.00').replace('{', `{"agreement":{"recurring":{"daysBetweenPayments":${days}}},`);

  it('"24" is 24: an Authenticate Payer sending browser details as strings gets them back as numbers', async () => {
    const order = newOrder();
    const initiated = await under.api.put(
      `/order/${order}/transaction/a1`,
      initiateAuthenticationBody('5123450000000008'),
    );
    expect(initiated.status).toBe(201);
    const browserDetails = { colorDepth: '24', screenHeight: '1080', timeZone: '-300' };
    const payer = await under.api.put(
      `/order/${order}/transaction/a1`,
      authenticatePayerBody(undefined, {
        device: { browser: 'Mozilla/5.0 (X11; Linux x86_64)', browserDetails },
      }),
    );
    expect(payer.status).toBe(201);
    expect(payer.body.device.browserDetails).toEqual({
      colorDepth: 24,
      screenHeight: 1080,
      timeZone: -300,
    });
  });

  it('"30" and 30 are one request: a retry sending the other gets the same response', async () => {
    const order = newOrder();
    const first = await under.api.put(`/order/${order}/transaction/1`, withDays('"30"'));
    expect(first.status).toBe(201);
    const again = await under.api.put(`/order/${order}/transaction/1`, withDays('30'));
    expect(again.text).toBe(first.text);
  });

  it.each(['"30.0"', '"1e2"', '" 30"', '30.0', '"0"'])(
    'refuses %s naming the field',
    async (days) => {
      const refused = await under.api.put(`/order/${newOrder()}/transaction/1`, withDays(days));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        field: 'agreement.recurring.daysBetweenPayments',
        validationType: 'INVALID',
      });
    },
  );
});

describe('the same SDK on the other merchant bodies: sessions and Payment Options Inquiry', () => {
  it('a session update with "number": 5123450000000008 stores the card, which then pays', async () => {
    const created = await under.api.post('/session');
    const id = created.body.session.id as string;
    const updated = await under.api.put(
      `/session/${id}`,
      `{"order":{"amount":25.50,"currency":"USD"},"sourceOfFunds":{"provided":{"card":${card('5123450000000008')}}}}`,
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ session: { updateStatus: 'SUCCESS' } });
    const stored = await under.api.get(`/session/${id}`);
    expect(stored.body).toMatchObject({
      order: { amount: '25.50' },
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
    });
    const paid = await under.api.put(`/order/${newOrder()}/transaction/1`, {
      apiOperation: 'PAY',
      session: { id },
      sourceOfFunds: { type: 'CARD' },
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ result: 'SUCCESS', order: { amount: 25.5 } });
  });

  it('a session update refuses "amount": 1e2 as the string would be, naming order.amount', async () => {
    const id = (await under.api.post('/session')).body.session.id as string;
    const refused = await under.api.put(`/session/${id}`, '{"order":{"amount":1e2}}');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ field: 'order.amount', validationType: 'INVALID' });
  });

  it('Payment Options Inquiry with "amount": 100.00 and a numeric card number makes its offer', async () => {
    const answer = await under.api.post(
      '/paymentOptionsInquiry',
      '{"order":{"amount":100.00,"currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":4012000033330026}}}}',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.currencyConversion).toMatchObject({
      payerCurrency: 'EUR',
      payerAmount: 94.76,
    });
  });
});
