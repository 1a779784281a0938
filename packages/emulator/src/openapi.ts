import {
  CLIENT_VERSION,
  type Endpoint,
  KINDS,
  RESOURCE_KINDS,
  rootCauseAnalysisPendingSchema,
  serviceEndpoints,
} from '@monitor/api';
import { z } from '@monitor/api/zod';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/**
 * Defaults of query parameters the service documents (seed and addendum §2, §4): what an absent
 * parameter means. Page-based lists take 10 a page, cursor-based ones 20.
 */
function queryDefault(endpoint: Endpoint, name: string): unknown {
  switch (name) {
    case 'limit':
      return endpoint.pagination === 'cursor' ? 20 : 10;
    case 'page':
      return 1;
    case 'autoAssignAlerts':
    case 'paginated':
      return true;
    case 'applyGroupSettings':
    case 'includeAllIncidentUpdates':
      return false;
    case 'quickRange':
      return 'last24Hours';
    case 'maxWaitSeconds':
      return 30;
    default:
      return undefined;
  }
}

/** The documented defaults of a managed kind, set on the matching properties of `schema`, nested objects too. */
function withDefaults(schema: JsonSchema, defaults: Readonly<Record<string, unknown>>): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) return schema;
  for (const [name, value] of Object.entries(defaults)) {
    const property = properties[name];
    if (property === undefined || value === undefined) continue;
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      property.properties !== undefined
    ) {
      withDefaults(property, value as Record<string, unknown>);
    } else {
      property.default = value;
    }
  }
  return schema;
}

/**
 * A managed kind's defaults by the operations that create it or list it. Not its update: a PUT
 * is partial and leaves out what it does not change (addendum §3).
 */
const KIND_DEFAULTS = new Map<string, Readonly<Record<string, unknown>>>(
  RESOURCE_KINDS.flatMap((kind) => {
    const def = KINDS[kind];
    return [def.operations.create, def.operations.list].map(
      (name) => [name, def.defaults as Readonly<Record<string, unknown>>] as const,
    );
  }),
);

/** Errors every operation may answer, besides its own (`Endpoint.errors`). */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message names the field (shape A, with validation)',
  401: 'Missing or unknown API key, or no account header (shape A and B)',
  402: "The account's plan lacks this feature (shape A and B)",
  403: 'The key may not do this in this account (shape A)',
  404: 'Not found (shape A)',
  408: 'Still in progress after maxWaitSeconds; retry after Retry-After (shape A)',
  409: 'Conflict with the state of the account (shape A)',
  429: 'Rate limited; retry after Retry-After (shape A and B)',
};

function errorResponses(endpoint: Endpoint): Record<string, JsonSchema> {
  const statuses = new Set<number>([400, 401, 403, 429, ...(endpoint.errors ?? [])]);
  if (endpoint.params !== undefined) statuses.add(404);
  // The subscription delete documents shape B for its errors; 401, 402 and 429 carry attributes everywhere.
  const withAttributes = (status: number) =>
    endpoint.operation === 'statusPages.deleteSubscription' ||
    status === 401 ||
    status === 402 ||
    status === 429;
  const out: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const schema =
      status === 400 ? 'ValidationError' : withAttributes(status) ? 'ErrorWithAttributes' : 'Error';
    out[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
      ...(status === 408 || status === 429
        ? {
            headers: {
              'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } },
            },
          }
        : {}),
    };
  }
  return out;
}

function parameters(endpoint: Endpoint): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (schema === undefined) continue;
    const json = toSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const fallback = where === 'query' ? queryDefault(endpoint, name) : undefined;
      const param: JsonSchema = {
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: fallback === undefined ? property : { ...property, default: fallback },
      };
      if (endpoint.commaSeparated?.includes(name)) {
        param.style = 'form';
        param.explode = false;
      }
      out.push(param);
    }
  }
  return out;
}

/** The endpoint table's name of `endpoint` (`checkGroupsCreate`), as kind definitions name their operations. */
function endpointName(endpoint: Endpoint): string {
  const [resource = '', verb = ''] = endpoint.operation.split('.');
  return `${resource}${verb.charAt(0).toUpperCase()}${verb.slice(1)}`;
}

/** The completed member of the analysis GET's union: what its 200 carries. */
function completedAnalysis(response: z.ZodType): z.ZodType {
  const options = (response as unknown as { _zod: { def: { options?: z.ZodType[] } } })._zod.def.options;
  return options?.[0] ?? response;
}

/** The current contract: OpenAPI 3.1, generated from the endpoint table, listing every route served. */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of serviceEndpoints) {
    const defaults = KIND_DEFAULTS.get(endpointName(endpoint));
    const responses: Record<string, JsonSchema> = {};
    for (const status of endpoint.success) {
      let schema: JsonSchema | undefined;
      if (endpoint.response !== null && status !== 204) {
        // A 202 of the analysis GET is the pending form only; its 200 the completed analysis.
        const zod =
          endpoint.operation === 'rootCauseAnalyses.get' && status === 202
            ? rootCauseAnalysisPendingSchema
            : endpoint.response;
        schema = toSchema(
          endpoint.operation === 'rootCauseAnalyses.get' && status === 200
            ? completedAnalysis(endpoint.response)
            : zod,
          'output',
        );
        if (defaults !== undefined)
          withDefaults((schema.items as JsonSchema | undefined) ?? schema, defaults);
      }
      responses[String(status)] =
        schema === undefined
          ? { description: 'No content' }
          : {
              description: status === 202 ? 'Accepted' : 'Success',
              content: { 'application/json': { schema } },
            };
    }
    Object.assign(responses, errorResponses(endpoint));
    const operation: JsonSchema = {
      operationId: endpoint.operation,
      summary: endpoint.summary,
      parameters: parameters(endpoint),
      responses,
    };
    if (endpoint.body !== undefined) {
      const body = toSchema(endpoint.body, 'input');
      if (defaults !== undefined) withDefaults(body, defaults);
      operation.requestBody = {
        // A body whose every field is optional may be left out (trigger, cancel, generate an analysis).
        required: ((body.required as string[] | undefined) ?? []).length > 0,
        content: { 'application/json': { schema: body } },
      };
    }
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as Record<string, JsonSchema>)[endpoint.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Monitoring service API (emulator)',
      version: CLIENT_VERSION,
      description: 'Generated from the @monitor/api endpoint table: every route the emulator serves.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [], account: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        account: { type: 'apiKey', in: 'header', name: 'x-monitor-account' },
      },
      schemas: {
        Error: {
          description: 'Shape A: every error body',
          type: 'object',
          properties: {
            statusCode: { type: 'number' },
            error: { type: 'string', description: 'The HTTP reason phrase' },
            message: { type: 'string' },
          },
          required: ['statusCode', 'error', 'message'],
        },
        ErrorWithAttributes: {
          description: 'Shape A that also satisfies shape B (message, attributes)',
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { type: 'object', properties: { attributes: { type: 'object' } }, required: ['attributes'] },
          ],
        },
        ValidationError: {
          description: 'Shape A with the part of the request that failed',
          allOf: [
            { $ref: '#/components/schemas/Error' },
            {
              type: 'object',
              properties: {
                validation: {
                  type: 'object',
                  properties: {
                    source: { enum: ['payload', 'query', 'params'] },
                    keys: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          ],
        },
      },
    },
    paths,
  };
}

/** The deprecated, frozen document: the seed's routes only, no longer updated. */
export function swaggerDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of serviceEndpoints.filter((e) => e.source === 'seed')) {
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as Record<string, JsonSchema>)[endpoint.method.toLowerCase()] = {
      operationId: endpoint.operation,
      summary: endpoint.summary,
      deprecated: true,
      responses: { [String(endpoint.success[0])]: { description: 'Success' } },
    };
  }
  return {
    swagger: '2.0',
    info: { title: 'Monitoring service API (deprecated)', version: '1.0.0' },
    paths,
  };
}
