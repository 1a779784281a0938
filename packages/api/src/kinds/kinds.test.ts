import { describe, expect, it } from 'vitest';
import { type Endpoint, endpoints } from '../endpoints.js';
import { lenient } from '../lenient.js';
import { REDACTED, Redactor } from '../redact.js';
import type { z } from '../zod.js';
import { kindOfEndpoint } from './by-endpoint.js';
import { type KindDefinition, type ResourceKind, valuesAt } from './definition.js';
import { fieldsOf } from './fields.js';
import { KINDS, RESOURCE_KINDS } from './index.js';
import { isSensitive, redactPayload, replaceSensitive, SENSITIVE_VALUE, sensitiveValues } from './secrets.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
}
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a rule path (`a.b[].c`) reaches in `schema`, through optionals and union variants. */
function resolve(schema: z.ZodType, path: string): z.ZodType[] {
  const steps = path
    .replace(/\[\]/g, '.[]')
    .split('.')
    .filter((s) => s !== '');
  let current = [schema];
  for (const step of steps) {
    const next: z.ZodType[] = [];
    const visit = (s: z.ZodType) => {
      const d = defOf(s);
      if (d.innerType !== undefined) return visit(d.innerType);
      if (d.type === 'pipe' && d.in !== undefined) return visit(d.in);
      if (d.options !== undefined) return d.options.forEach(visit);
      if (step === '[]' && d.element !== undefined) next.push(d.element);
      else if (d.shape?.[step] !== undefined) next.push(d.shape[step]);
    };
    current.forEach(visit);
    current = next;
  }
  return current;
}

const kinds = Object.values(KINDS) as KindDefinition[];

describe('kind definitions', () => {
  it.each(kinds.map((k) => [k.kind, k] as const))(
    '%s: every keyed list is named as a list, not its items',
    (_, def) => {
      // Synthesis walks to each keyed list by these paths (duplicate keys): `cards[]` would be its items.
      for (const list of Object.keys(def.keyed)) expect(list).not.toMatch(/\[\]$/);
    },
  );

  it.each(kinds.map((k) => [k.kind, k] as const))(
    '%s: every declared path exists in its create schema',
    (_, def) => {
      const paths = [
        ...def.sets,
        ...Object.keys(def.keyed),
        ...Object.entries(def.keyed).map(([list, key]) => `${list}[].${key}`),
        ...def.dates,
        ...def.uniqueKeys,
        ...def.references.map((r) => r.path),
        ...def.sensitive.map((s) => s.path),
        ...Object.keys(def.defaults),
      ];
      for (const path of paths) {
        // Dashboard keys are made by the service; the create schema takes them only to ignore them.
        expect(resolve(def.createSchema, path), `${def.kind} ${path}`).not.toEqual([]);
      }
    },
  );

  it.each(kinds.map((k) => [k.kind, k] as const))(
    '%s: a response has every field its requests take, and reads what a request may not send',
    (_, def) => {
      const answered = new Set(fieldsOf(def.responseSchema));
      for (const field of fieldsOf(def.createSchema))
        expect(answered, `${def.kind} ${field}`).toContain(field);
    },
  );

  it('reads responses tolerantly: a new enum or literal value, a value out of range', () => {
    const live = { id: 7, dashboardId: 'd', created_at: '2026-01-01T00:00:00Z' };
    const read = (value: object) => lenient(KINDS.Dashboard.responseSchema).safeParse({ ...live, ...value });
    expect(read({ refreshRate: 120, width: '1200PX', checksPerPage: 50, header: null }).success).toBe(true);
    expect(read({ refreshRate: '120' }).success).toBe(false);
    expect(KINDS.Dashboard.createSchema.safeParse({ header: 'h', refreshRate: 120 }).success).toBe(false);
  });

  it('operations are the kind’s own endpoints with the expected methods', () => {
    for (const def of kinds) {
      const { list, create, update, delete: remove, idParam } = def.operations;
      expect(endpoints[list].method).toBe('GET');
      expect(endpoints[create].method).toBe('POST');
      expect(endpoints[update].method).toBe('PUT');
      expect(endpoints[remove].method).toBe('DELETE');
      expect(endpoints[update].path).toContain(`{${idParam}}`);
      expect(endpoints[remove].path).toContain(`{${idParam}}`);
      expect((endpoints[create] as Endpoint).body).toBe(def.createSchema);
      expect(kindOfEndpoint(endpoints[create])).toBe(def);
    }
  });

  it('orders kinds so that every reference points backwards', () => {
    for (const def of kinds) {
      for (const ref of def.references) {
        expect(RESOURCE_KINDS.indexOf(ref.kind)).toBeLessThan(
          RESOURCE_KINDS.indexOf(def.kind as ResourceKind),
        );
      }
    }
    expect([...RESOURCE_KINDS].sort()).toEqual(Object.keys(KINDS).sort());
  });
});

describe('sensitive values', () => {
  const webhook = {
    type: 'WEBHOOK',
    config: {
      name: 'hook',
      url: 'https://example.com/in',
      webhookSecret: 'shh-secret',
      headers: [
        { key: 'Authorization', value: 'Bearer token-1' },
        { key: 'X-Team', value: 'ops' },
      ],
    },
  };

  it('names each by the path a diff uses, keyed list items by their key', () => {
    expect(sensitiveValues(KINDS.AlertChannel, webhook)).toEqual({
      'config.webhookSecret': 'shh-secret',
      'config.headers[Authorization].value': 'Bearer token-1',
      'config.headers[X-Team].value': 'ops',
    });
    expect(
      sensitiveValues(KINDS.CheckGroup, {
        environmentVariables: [
          { key: 'TOKEN', value: 't', secret: true },
          { key: 'PLAIN', value: 'p', secret: false },
        ],
      }),
    ).toEqual({ 'environmentVariables[TOKEN].value': 't' });
  });

  it('holds only for the channel type that has the field: a webhook url is not a credential, a Slack url is', () => {
    expect(
      sensitiveValues(KINDS.AlertChannel, { type: 'SLACK', config: { url: 'https://hooks/x' } }),
    ).toEqual({
      'config.url': 'https://hooks/x',
    });
    expect(redactPayload(KINDS.AlertChannel, webhook)).toEqual({
      type: 'WEBHOOK',
      config: {
        name: 'hook',
        url: 'https://example.com/in',
        webhookSecret: SENSITIVE_VALUE,
        headers: [
          { key: 'Authorization', value: SENSITIVE_VALUE },
          { key: 'X-Team', value: SENSITIVE_VALUE },
        ],
      },
    });
    expect(webhook.config.webhookSecret).toBe('shh-secret');
  });

  it('takes a key that is a path for that path, as a conflict names a field', () => {
    const slack = { type: 'SLACK', 'config.url': 'https://hooks/x' };
    expect(sensitiveValues(KINDS.AlertChannel, slack)).toEqual({ 'config.url': 'https://hooks/x' });
    expect(redactPayload(KINDS.AlertChannel, slack)).toEqual({
      type: 'SLACK',
      'config.url': SENSITIVE_VALUE,
    });
    const group = { name: 'g', 'apiCheckDefaults.basicAuth': { password: 'pw-123' } };
    expect(redactPayload(KINDS.CheckGroup, group)).toEqual({
      name: 'g',
      'apiCheckDefaults.basicAuth': { password: SENSITIVE_VALUE },
    });
    // Not a path: left as it is.
    const odd = { name: 'g', 'apiCheckDefaults..basicAuth': { password: 'pw-123' } };
    expect(redactPayload(KINDS.CheckGroup, odd)).toBe(odd);
  });

  it('answers for a part of a payload by its rule path, as a plan compares one field', () => {
    const variables = [
      { key: 'TOKEN', value: 't', secret: true },
      { key: 'PLAIN', value: 'p', secret: false },
    ];
    const payload = { name: 'g', environmentVariables: variables };
    const hide = () => SENSITIVE_VALUE;
    expect(replaceSensitive(KINDS.CheckGroup, variables, hide, 'environmentVariables', payload)).toEqual([
      { key: 'TOKEN', value: SENSITIVE_VALUE, secret: true },
      { key: 'PLAIN', value: 'p', secret: false },
    ]);
    // Nothing sensitive under it: the value itself, not a copy.
    expect(replaceSensitive(KINDS.CheckGroup, variables, hide, 'tags', payload)).toBe(variables);
    expect(isSensitive(KINDS.CheckGroup, 'environmentVariables[].value', variables[0] ?? {}, payload)).toBe(
      true,
    );
    expect(isSensitive(KINDS.CheckGroup, 'environmentVariables[].value', variables[1] ?? {}, payload)).toBe(
      false,
    );
    expect(isSensitive(KINDS.CheckGroup, 'environmentVariables[].key', variables[0] ?? {}, payload)).toBe(
      false,
    );
    expect(isSensitive(KINDS.CheckGroup, 'environmentVariables.value', variables[0] ?? {}, payload)).toBe(
      false,
    );
    expect(isSensitive(KINDS.CheckGroup, 'environmentVariables[]..value', variables[0] ?? {}, payload)).toBe(
      false,
    );
    expect(isSensitive(KINDS.CheckGroup, 'apiCheckDefaults.basicAuth.password', {}, payload)).toBe(true);
  });
});

describe('Redactor', () => {
  it('removes a secret as sent, URL-encoded and escaped inside JSON, once and twice', () => {
    const r = new Redactor();
    const secret = 'zq"a\\zq\nwörd';
    r.collectFrom({ type: 'OPSGENIE', config: { apiKey: secret } }, KINDS.AlertChannel);
    const inJson = JSON.stringify({ apiKey: secret });
    const twice = JSON.stringify({ message: `bad body: ${inJson}` });
    for (const text of [secret, encodeURIComponent(secret), inJson, twice]) {
      const out = r.redact(text);
      expect(out).toContain(REDACTED);
      expect(out).not.toContain('zq');
    }
  });
});

describe('fieldsOf', () => {
  it('lists the fields a schema declares, nested ones by path, every variant’s of a union', () => {
    expect(fieldsOf(KINDS.StatusPageService.createSchema)).toEqual(['name']);
    expect(fieldsOf(KINDS.MaintenanceWindow.createSchema, 'statusPageVisibility')).toContain('autoStart');
    expect(fieldsOf(KINDS.CheckGroup.createSchema, 'apiCheckDefaults.basicAuth')).toEqual([
      'username',
      'password',
    ]);
    expect(fieldsOf(KINDS.AlertChannel.createSchema)).toEqual([
      'type',
      'config',
      'sendRecovery',
      'sendFailure',
      'sendDegraded',
      'sslExpiry',
      'sslExpiryThreshold',
      'autoSubscribe',
    ]);
    expect(fieldsOf(KINDS.AlertChannel.createSchema, 'config')).toContain('serviceKey');
    expect(fieldsOf(KINDS.Dashboard.createSchema, 'header')).toEqual([]);
  });
});

describe('valuesAt', () => {
  it('finds every value at a rule path, with its concrete path; missing fields are undefined', () => {
    const page = { cards: [{ services: [{ id: 'a' }, { id: 'b' }] }, { name: 'empty' }, { services: [{}] }] };
    expect(valuesAt(page, 'cards[].services[].id')).toEqual([
      { path: 'cards[0].services[0].id', value: 'a' },
      { path: 'cards[0].services[1].id', value: 'b' },
      { path: 'cards[2].services[0].id', value: undefined },
    ]);
    expect(valuesAt(page, 'cards[].services').map((v) => v.path)).toEqual([
      'cards[0].services',
      'cards[1].services',
      'cards[2].services',
    ]);
    expect(valuesAt({ cards: null }, 'cards[].services')).toEqual([]);
  });
});

describe('outputs', () => {
  it('no kind names a sensitive field, or a field it does not have, as an output', () => {
    for (const def of Object.values(KINDS)) {
      for (const field of def.outputs ?? []) {
        expect(
          def.sensitive.some((s) => s.path === field || s.path.startsWith(`${field}.`)),
          `${def.kind}.${field}`,
        ).toBe(false);
        expect(
          Object.keys((def.responseSchema as unknown as { shape: object }).shape),
          `${def.kind}.${field}`,
        ).toContain(field);
      }
    }
  });
});
