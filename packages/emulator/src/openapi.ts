import { CLIENT_VERSION, type Endpoint, serviceEndpoints } from '@monitor/api';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
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
      const param: JsonSchema = {
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: property,
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

/** The current contract: OpenAPI 3.1, generated from the endpoint table, listing every route served. */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of serviceEndpoints) {
    const responses: Record<string, JsonSchema> = {};
    for (const status of endpoint.success) {
      responses[String(status)] =
        endpoint.response === null || status === 204
          ? { description: 'No content' }
          : {
              description: 'Success',
              content: { 'application/json': { schema: toSchema(endpoint.response, 'output') } },
            };
    }
    responses.default = {
      description: 'Error (shape A: statusCode, error, message)',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    const operation: JsonSchema = {
      operationId: endpoint.operation,
      summary: endpoint.summary,
      parameters: parameters(endpoint),
      responses,
    };
    if (endpoint.body !== undefined) {
      operation.requestBody = {
        required: endpoint.method !== 'POST' || !endpoint.path.includes('cancel'),
        content: { 'application/json': { schema: toSchema(endpoint.body, 'input') } },
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
          type: 'object',
          properties: {
            statusCode: { type: 'number' },
            error: { type: 'string' },
            message: { type: 'string' },
            attributes: { type: 'object' },
          },
          required: ['message'],
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
