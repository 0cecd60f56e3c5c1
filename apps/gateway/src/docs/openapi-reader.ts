import type { Schema } from './schema-rows';

/** What the docs page reads of an OpenAPI 3.1 document such as `buildOpenApiDocument` produces. */

export interface Parameter {
  readonly $ref?: string;
  readonly name: string;
  readonly in: string;
  readonly description?: string;
  readonly schema?: Schema;
}

export interface MediaType {
  readonly schema?: Schema;
  readonly examples?: Readonly<
    Record<string, { readonly summary?: string; readonly value: unknown }>
  >;
}

export interface Answer {
  readonly $ref?: string;
  readonly description?: string;
  readonly content?: Readonly<Record<string, MediaType>>;
}

type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface Operation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: {
    readonly description?: string;
    readonly content: Readonly<Record<string, MediaType>>;
  };
  readonly responses: Readonly<Record<string, Answer>>;
  readonly security?: readonly SecurityRequirement[];
}

export interface OpenApiDocument {
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description?: string;
  };
  readonly security?: readonly SecurityRequirement[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components?: {
    readonly schemas?: Readonly<Record<string, Schema>>;
    readonly securitySchemes?: Readonly<
      Record<
        string,
        { readonly type: string; readonly scheme?: string; readonly description?: string }
      >
    >;
  };
}

export interface Endpoint {
  readonly path: string;
  readonly method: string;
  readonly operation: Operation;
  readonly parameters: readonly Parameter[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

export const componentName = (ref: string): string => ref.split('/').pop() ?? ref;

/** Local references only (`#/components/...`): the generated document has no other kind. */
export class OpenApiReader {
  constructor(readonly document: OpenApiDocument) {}

  resolve<T>(ref: string): T {
    return ref
      .slice(2)
      .split('/')
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        this.document,
      ) as T;
  }

  /** `value`, or what it refers to. */
  deref<T extends { readonly $ref?: string }>(value: T): T {
    return value.$ref ? this.resolve<T>(value.$ref) : value;
  }

  endpoints(): Endpoint[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => {
        const operation = item[method] as Operation;
        const shared = (item.parameters ?? []) as readonly Parameter[];
        const parameters = [...shared, ...(operation.parameters ?? [])].map((p) => this.deref(p));
        return { path, method, operation, parameters };
      }),
    );
  }
}
