import 'reflect-metadata';
import { API_OPERATIONS, allContracts, buildOpenApiDocument } from '@gateway/contract';
import { renderDocsPage } from '../../src/docs/docs.page';

const document = buildOpenApiDocument() as any;
const page = renderDocsPage(document);

const ids = [...page.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]);
const section = (id: string): string => {
  const start = page.indexOf(`<section id="${id}"`);
  expect(start).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</section>', start));
};

describe('the docs page lists the whole API', () => {
  test('every endpoint, with its path parameters and answers', () => {
    for (const [path, item] of Object.entries<any>(document.paths))
      for (const method of ['get', 'put', 'post'].filter((m) => item[m])) {
        expect(page).toContain(`<span class="method">${method}</span> <code>${path}</code>`);
        expect(page).toContain(`id="endpoint-${item[method].operationId}"`);
      }
    for (const name of ['version', 'merchantId', 'orderId', 'transactionId'])
      expect(page).toContain(`<th scope="row"><code>${name}</code></th>`);
    expect(page).toContain('<code>^[0-9A-Za-z_-]{1,40}$</code>');
    for (const status of ['200', '201', '400', '401', '403', '404', '500', '503'])
      expect(page).toContain(`<th scope="row">${status}</th>`);
  });

  test('the other request bodies, each its own section, and query and header parameters', () => {
    for (const name of [
      'CreateSessionRequest',
      'UpdateSessionRequest',
      'PaymentOptionsInquiryRequest',
    ]) {
      const at = page.indexOf(`<section id="schema-${name}"`);
      expect(at).toBeGreaterThan(page.indexOf('<section id="other-requests"'));
      expect(at).toBeLessThan(page.indexOf('<section id="responses"'));
      if (name !== 'CreateSessionRequest')
        expect(page).toContain(`Request body: <a href="#schema-${name}">`);
    }
    expect(page).toMatch(
      /Request body, one of: <a href="#schema-CreateSessionRequest">.*<a href="#schema-InitiateCheckoutRequest">/,
    );
    expect(page).toContain('<th scope="row"><code>cursor</code></th>\n<td>query</td>');
    expect(page).toContain('<th scope="row"><code>Last-Event-ID</code></th>\n<td>header</td>');
  });

  test('every operation, with a section per version shape', () => {
    const body = document.components.schemas.TransactionRequest;
    const shapes = Object.entries<string>(body.discriminator.mapping).flatMap(([op, ref]) => {
      expect(ids).toContain(`operation-${op}`);
      const target = document.components.schemas[ref.split('/').pop()!];
      return target.anyOf ? target.anyOf.map((s: any) => s.$ref) : [ref];
    });
    expect(Object.keys(body.discriminator.mapping)).toEqual([...API_OPERATIONS]);
    expect(shapes).toHaveLength(allContracts.length);
    for (const ref of shapes) expect(ids).toContain(`schema-${ref.split('/').pop()}`);
    expect(section('operation-REFUND')).toContain(
      'versions 1-40 use Refund_v26; versions 41-100 use Refund_v41',
    );
  });

  test('a shape lists its fields, nested ones by path, with type, constraints, requirement and description', () => {
    const authorize = section('schema-Authorize_v39');
    expect(authorize).toContain('<summary>Fields of Authorize_v39');
    expect(authorize).toMatch(
      /<code>order\.amount<\/code><\/th>\s*<td>string or number<\/td>\s*<td>yes<\/td>[\s\S]*?length 1-14[\s\S]*?<td>Total amount of the order<\/td>/,
    );
    for (const path of [
      'order.item[].quantity',
      'order.custom.*',
      'sourceOfFunds.provided.card.number',
      '3DSecure.xid',
    ])
      expect(authorize).toContain(`<code>${path}</code>`);
    expect(authorize).toContain('value at least 1');
    expect(authorize).toContain('sensitive: never echoed in errors');
    expect(authorize).toContain('length 28 or length 32');
    expect(authorize).toContain('At least one of sourceOfFunds, session.id is required');
  });

  test('response bodies and the error object, with examples', () => {
    for (const name of ['TransactionResponse', 'OrderResponse', 'ErrorResponse'])
      expect(ids).toContain(`schema-${name}`);
    expect(section('schema-OrderResponse')).toContain('<code>transaction</code>');
    expect(page).toContain('Example: Any authentication failure');
    expect(page).toContain('&quot;Invalid credentials.&quot;');
  });

  test('authentication: HTTP Basic and the certificate scheme', () => {
    expect(section('authentication')).toContain('http (basic)');
    expect(section('authentication')).toContain('mutualTLS');
  });
});

describe('the page is self-contained, accessible HTML', () => {
  test('no script, no external asset', () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\(/i);
    expect(page).not.toMatch(/href="(?!#|\/api\/openapi\.json")/);
  });

  test('landmarks, language, headings, captioned tables with header cells', () => {
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<main>');
    expect(page).toContain('<nav aria-label="Contents">');
    const tables = page.match(/<table>/g)!.length;
    expect(page.match(/<caption>/g)).toHaveLength(tables);
    expect(page.match(/<thead>\s*<tr>\s*<th scope="col">/g)).toHaveLength(tables);
  });

  test('ids are unique and every link lands on one', () => {
    expect(new Set(ids).size).toBe(ids.length);
    const targets = [...page.matchAll(/href="#([^"]*)"/g)].map((m) => m[1]);
    expect(targets.filter((t) => !ids.includes(t))).toEqual([]);
  });

  test('the same document gives the same page', () => {
    expect(renderDocsPage(buildOpenApiDocument())).toBe(page);
  });
});

describe('every text from the document is escaped', () => {
  const evil = '<script>alert("x")</script> & \'quoted\'';
  const hostile = {
    openapi: '3.1.0',
    info: { title: evil, version: evil, description: evil },
    security: [{ [evil]: [] }],
    paths: {
      [`/x/${evil}`]: {
        put: {
          operationId: evil,
          summary: evil,
          description: evil,
          parameters: [
            {
              name: evil,
              in: 'path',
              description: evil,
              schema: { type: 'string', pattern: evil },
            },
          ],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } },
          },
          responses: {
            [evil]: {
              description: evil,
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Body' },
                  examples: { one: { summary: evil, value: { text: evil } } },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Body: {
          description: evil,
          discriminator: { propertyName: 'op', mapping: { [evil]: '#/components/schemas/Shape' } },
          oneOf: [{ $ref: '#/components/schemas/Shape' }],
        },
        Shape: {
          type: 'object',
          title: evil,
          description: evil,
          'x-gateway-rules': [evil],
          properties: {
            [evil]: {
              type: 'string',
              description: evil,
              enum: [evil],
              pattern: evil,
              format: evil,
            },
          },
          required: [evil],
        },
      },
      securitySchemes: { [evil]: { type: 'http', scheme: evil, description: evil } },
    },
  };

  test('no markup from the document reaches the page', () => {
    const out = renderDocsPage(hostile);
    expect(out).not.toContain('<script');
    expect(out).not.toContain('"x"');
    expect(out).not.toContain("'quoted'");
    expect(out).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;',
    );
    // Ids are built from names but keep to letters, digits, '_' and '-'.
    for (const [, id] of out.matchAll(/ id="([^"]*)"/g)) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
