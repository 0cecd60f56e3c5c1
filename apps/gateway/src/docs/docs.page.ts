import { html, Html } from '@gateway/order-view';
import {
  componentName,
  OpenApiReader,
  type Answer,
  type Endpoint,
  type OpenApiDocument,
} from './openapi-reader';
import { constraintsOf, fieldRows, flatten, type Constraint, type Schema } from './schema-rows';

/**
 * The API reference as one self-contained HTML page, rendered on the server from the OpenAPI
 * document: no script and no external asset, so it works offline and under a strict CSP.
 * Pure (document in, HTML out); every text taken from the document is escaped by `html`.
 */

/** Written here, not taken from the document: inserted as is. */
const STYLE = new Html(`
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:80rem;padding:1rem;color:#1a1a1a;background:#fff}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f4f4f4;padding:.5rem;overflow-x:auto}
.text{white-space:pre-line}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
caption{text-align:left;font-style:italic}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
thead th{background:#eee}
tbody th{font-weight:normal}
ul.constraints{margin:0;padding-left:1rem}
summary{cursor:pointer;font-weight:bold}
.method{font-weight:bold;text-transform:uppercase}
a:focus-visible,summary:focus-visible{outline:2px solid #005fcc}
`);

/** An id from a name: letters, digits, '_' and '-' only. */
const anchor = (kind: string, name: string): string =>
  `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

const schemaLink = (name: string): Html =>
  html`<a href="#${anchor('schema', name)}"><code>${name}</code></a>`;

function constraintList(constraints: readonly Constraint[]): Html {
  if (constraints.length === 0) return html``;
  return html`<ul class="constraints">
    ${constraints.map(
      (c) =>
        html`<li>
          ${c.text}${(c.code ?? []).map(
            (code, i) => html`${i === 0 ? ' ' : ', '}<code>${code}</code>`,
          )}
        </li>`,
    )}
  </ul>`;
}

function fieldTable(reader: OpenApiReader, name: string, schema: Schema): Html {
  const rows = fieldRows(schema, (ref) => reader.resolve<Schema>(ref));
  return html`<details>
    <summary>Fields of ${name} (${rows.length})</summary>
    <div class="scroll">
      <table>
        <caption>
          Fields of ${name}. A required field is required whenever its enclosing group is sent.
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Constraints</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (row) =>
              html`<tr>
                <th scope="row"><code>${row.path}</code></th>
                <td>${row.type}</td>
                <td>${row.required ? 'yes' : 'no'}</td>
                <td>${constraintList(row.constraints)}</td>
                <td>${row.description}</td>
              </tr> `,
          )}
        </tbody>
      </table>
    </div>
  </details>`;
}

/** A named schema: title, description, served versions, rules across its fields, its fields. */
function schemaSection(reader: OpenApiReader, name: string, heading: 'h3' | 'h4'): Html {
  const schema = flatten(reader.resolve<Schema>(`#/components/schemas/${name}`), (ref) =>
    reader.resolve<Schema>(ref),
  );
  const title = html`<code>${name}</code>`;
  const versions = schema['x-gateway-versions'];
  const rules = schema['x-gateway-rules'] ?? [];
  return html`<section id="${anchor('schema', name)}">
    ${heading === 'h3' ? html`<h3>${title}</h3>` : html`<h4>${title}</h4>`}
    ${schema.title && html`<p>${schema.title}</p>`}
    ${schema.description && html`<p class="text">${schema.description}</p>`}
    ${versions && html`<p>Used by requests at API versions ${versions.from} to ${versions.to}.</p>`}
    ${
      rules.length > 0 &&
      html`<p>Rules across fields:</p>
        <ul>
          ${rules.map((r) => html`<li>${r}</li>`)}
        </ul>`
    }
    ${fieldTable(reader, name, schema)}
  </section>`;
}

function answerRow(reader: OpenApiReader, status: string, answer: Answer): Html {
  const { description, content } = reader.deref(answer);
  const media = Object.values(content ?? {})[0];
  const ref = media?.schema?.$ref;
  return html`<tr>
    <th scope="row">${status}</th>
    <td>${description}</td>
    <td>
      ${ref && schemaLink(componentName(ref))}${Object.values(media?.examples ?? {}).map(
        (e) =>
          html`<details>
            <summary>Example: ${e.summary}</summary>
            <pre><code>${JSON.stringify(e.value, null, 2)}</code></pre>
          </details>`,
      )}
    </td>
  </tr> `;
}

const endpointId = (e: Endpoint): string =>
  anchor('endpoint', e.operation.operationId ?? `${e.method}${e.path}`);

/** The schemas a request body refers to: one, or each of its oneOf (Create Session's). */
function bodyRefsOf(e: Endpoint): string[] {
  const schema = Object.values(e.operation.requestBody?.content ?? {})[0]?.schema;
  if (schema?.$ref) return [schema.$ref];
  return (schema?.oneOf ?? []).flatMap((one) => (one.$ref ? [one.$ref] : []));
}

/** The schema a request body refers to when it is one. */
const bodyRefOf = (e: Endpoint): string | undefined => {
  const refs = bodyRefsOf(e);
  return refs.length === 1 ? refs[0] : undefined;
};

function endpointSection(reader: OpenApiReader, e: Endpoint, byOperation?: string): Html {
  const { operation } = e;
  const security = (operation.security ?? reader.document.security ?? []).flatMap(Object.keys);
  const body = operation.requestBody;
  const bodyRef = bodyRefOf(e);
  const bodyChoices = bodyRefsOf(e).map((ref) => schemaLink(componentName(ref)));
  return html`<article id="${endpointId(e)}">
    <h3><span class="method">${e.method}</span> <code>${e.path}</code></h3>
    ${operation.summary && html`<p>${operation.summary}</p>`}
    ${operation.description && html`<p class="text">${operation.description}</p>`}
    <p>
      Authentication: ${security.length > 0 ? security.join(' or ') : 'none'} (see
      <a href="#authentication">Authentication</a>).
    </p>
    <div class="scroll">
      <table>
        <caption>
          Parameters
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Constraints</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          ${e.parameters.map(
            (p) =>
              html`<tr>
                <th scope="row"><code>${p.name}</code></th>
                <td>${p.in}</td>
                <td>${p.schema?.type}</td>
                <td>${constraintList(p.schema ? constraintsOf(p.schema) : [])}</td>
                <td>${p.description}</td>
              </tr> `,
          )}
        </tbody>
      </table>
    </div>
    ${
      bodyRef &&
      (bodyRef === byOperation
        ? html`<p>
            Request body: <a href="#requests"><code>${componentName(bodyRef)}</code></a
            >, by operation below. ${body?.description}
          </p>`
        : html`<p>Request body: ${schemaLink(componentName(bodyRef))}. ${body?.description}</p>`)
    }
    ${
      bodyChoices.length > 1 &&
      html`<p>
        Request body, one of: ${bodyChoices.map((link, i) => html`${i ? ', ' : ''}${link}`)}.
      </p>`
    }
    <div class="scroll">
      <table>
        <caption>
          Responses
        </caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Meaning</th>
            <th scope="col">Body</th>
          </tr>
        </thead>
        <tbody>
          ${Object.entries(operation.responses).map(([status, answer]) => answerRow(reader, status, answer))}
        </tbody>
      </table>
    </div>
  </article>`;
}

interface OperationShapes {
  readonly apiOperation: string;
  /** Set when the operation has several shapes: how the version picks one. */
  readonly choice?: string;
  readonly shapes: readonly string[];
}

/** The request body chosen by a discriminator (apiOperation): the transaction request. */
function discriminatedBody(reader: OpenApiReader, endpoints: readonly Endpoint[]) {
  return endpoints
    .map(bodyRefOf)
    .find((ref) => ref && reader.resolve<Schema>(ref).discriminator !== undefined);
}

/** The other request bodies (sessions, payment options inquiry), each once. */
function otherBodies(endpoints: readonly Endpoint[], byOperation?: string): string[] {
  const refs = endpoints.flatMap(bodyRefsOf).filter((ref) => ref !== byOperation);
  return [...new Set(refs.map(componentName))];
}

/** The request body's operations, by its discriminator, and the shape schemas of each. */
function operationShapes(reader: OpenApiReader, ref: string | undefined): OperationShapes[] {
  if (!ref) return [];
  const mapping = reader.resolve<Schema>(ref).discriminator?.mapping ?? {};
  return Object.entries(mapping).map(([apiOperation, target]) => {
    const schema = reader.resolve<Schema>(target);
    return schema.anyOf
      ? {
          apiOperation,
          choice: schema.description,
          shapes: schema.anyOf.map((s) => componentName(s.$ref ?? '')),
        }
      : { apiOperation, shapes: [componentName(target)] };
  });
}

/** Every schema the endpoints answer with, success and error, in the order they are named. */
function responseSchemas(reader: OpenApiReader, endpoints: readonly Endpoint[]): string[] {
  const refs = endpoints.flatMap((e) =>
    Object.values(e.operation.responses).flatMap((answer) =>
      Object.values(reader.deref(answer).content ?? {}).map((media) => media.schema?.$ref),
    ),
  );
  return [...new Set(refs.filter((ref): ref is string => ref !== undefined).map(componentName))];
}

/** `document` is an OpenAPI 3.1 document as `buildOpenApiDocument` builds it. */
export function renderDocsPage(document: object): string {
  const reader = new OpenApiReader(document as OpenApiDocument);
  const endpoints = reader.endpoints();
  const byOperation = discriminatedBody(reader, endpoints);
  const operations = operationShapes(reader, byOperation);
  const others = otherBodies(endpoints, byOperation);
  const responses = responseSchemas(reader, endpoints);
  const { info, components } = reader.document;
  const schemes = Object.entries(components?.securitySchemes ?? {});
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${info.title}: API reference</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <header>
          <h1>${info.title}</h1>
          <p>
            API versions ${info.version}. The OpenAPI 3.1 document:
            <a href="/api/openapi.json"><code>/api/openapi.json</code></a
            >.
          </p>
          ${info.description && html`<p class="text">${info.description}</p>`}
        </header>
        <nav aria-label="Contents">
          <h2>Contents</h2>
          <ul>
            <li>
              <a href="#endpoints">Endpoints</a>
              <ul>
                ${endpoints.map(
                  (e) =>
                    html`<li>
                      <a href="#${endpointId(e)}"
                        ><span class="method">${e.method}</span> <code>${e.path}</code></a
                      >
                    </li>`,
                )}
              </ul>
            </li>
            <li>
              <a href="#requests">Request bodies by operation</a>
              <ul>
                ${operations.map(
                  (op) =>
                    html`<li>
                      <a href="#${anchor('operation', op.apiOperation)}">${op.apiOperation}</a>:
                      ${op.shapes.map((name, i) => html`${i === 0 ? '' : ', '}${schemaLink(name)}`)}
                    </li>`,
                )}
              </ul>
            </li>
            <li>
              <a href="#other-requests">Other request bodies</a>
              <ul>
                ${others.map((name) => html`<li>${schemaLink(name)}</li>`)}
              </ul>
            </li>
            <li>
              <a href="#responses">Response bodies</a>
              <ul>
                ${responses.map((name) => html`<li>${schemaLink(name)}</li>`)}
              </ul>
            </li>
            <li><a href="#authentication">Authentication</a></li>
          </ul>
        </nav>
        <main>
          <section id="endpoints" aria-labelledby="endpoints-title">
            <h2 id="endpoints-title">Endpoints</h2>
            ${endpoints.map((e) => endpointSection(reader, e, byOperation))}
          </section>
          <section id="requests" aria-labelledby="requests-title">
            <h2 id="requests-title">Request bodies by operation</h2>
            ${operations.map(
              (op) =>
                html`<section id="${anchor('operation', op.apiOperation)}">
                  <h3>apiOperation <code>${op.apiOperation}</code></h3>
                  ${op.choice && html`<p class="text">${op.choice}</p>`}
                  ${op.shapes.map((name) => schemaSection(reader, name, 'h4'))}
                </section>`,
            )}
          </section>
          <section id="other-requests" aria-labelledby="other-requests-title">
            <h2 id="other-requests-title">Other request bodies</h2>
            ${others.map((name) => schemaSection(reader, name, 'h3'))}
          </section>
          <section id="responses" aria-labelledby="responses-title">
            <h2 id="responses-title">Response bodies</h2>
            ${responses.map((name) => schemaSection(reader, name, 'h3'))}
          </section>
          <section id="authentication" aria-labelledby="authentication-title">
            <h2 id="authentication-title">Authentication</h2>
            <dl>
              ${schemes.map(
                ([name, scheme]) =>
                  html`<dt>
                      <code>${name}</code>:
                      ${scheme.type}${scheme.scheme && html` (${scheme.scheme})`}
                    </dt>
                    <dd>${scheme.description}</dd>`,
              )}
            </dl>
          </section>
        </main>
      </body>
    </html> `.value;
}
