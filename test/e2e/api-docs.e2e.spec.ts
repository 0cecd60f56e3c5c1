import { checkAsyncApi } from '../support/asyncapi';
import { startGateway, type RunningGateway } from '../support/gateway-process';

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.stop());

describe('API documentation generated from the contract', () => {
  it('serves the OpenAPI 3.1 document without credentials', async () => {
    const response = await fetch(`${gateway.baseUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    const put =
      document.paths[
        '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}'
      ];
    expect(put?.put).toBeDefined();
    for (const schema of [
      'Authorize_v39',
      'Verify_v16',
      'Verify_v29',
      'Refund_v26',
      'Refund_v41',
      'Void_v40',
      'AuthenticatePayer_v54',
      'InitiateBrowserPayment_v37',
    ]) {
      expect(Object.keys(document.components.schemas)).toContain(schema);
    }
  });

  it('serves the AsyncAPI 3 document of the order events without credentials, as the parser accepts it', async () => {
    const response = await fetch(`${gateway.baseUrl}/api/asyncapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as Record<string, any>;
    // Fetched before the parse: the parse takes seconds of CPU on a loaded machine, and a socket
    // idle past the gateway's keep-alive timeout (5 s) is closed under the next request.
    const openApi = (await (await fetch(`${gateway.baseUrl}/api/openapi.json`)).json()) as any;
    expect(document.asyncapi).toMatch(/^3\./);
    expect((await checkAsyncApi(document)).problems).toEqual([]);
    expect(Object.keys(document.channels)).toEqual(['orderEventsTopic', 'liveFeed', 'webhook']);
    // The transaction is described by the very schema /api/openapi.json gives GET.
    expect(document.components.schemas.TransactionResponse).toEqual(
      openApi.components.schemas.TransactionResponse,
    );
  });

  it('serves a browsable page that needs no external assets', async () => {
    const response = await fetch(`${gateway.baseUrl}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('AUTHORIZE');
    expect(html).toContain('sourceOfFunds.provided.card.number');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
  });
});
