import { KINDS, type ResourceKind, sensitiveValues } from '@monitor/api';
import * as constructs from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { envelopeOf } from './support/harness.js';
import { projectsUnderTest } from './support/projects.js';

/**
 * §2: no message quotes a sensitive value. Every sensitive path of every kind definition gets a
 * value that breaks each rule it has, with a canary inside; validate, diff and deploy, in text,
 * --json and their verbose forms, must not print the canary anywhere.
 */

/** A valid construct of each class that can hold a sensitive value, one item in every list. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  CheckGroup: {
    name: 'Group',
    environmentVariables: [{ key: 'TOKEN', value: 'v', secret: true }],
    apiCheckDefaults: { basicAuth: { username: 'ops', password: 'p' } },
  },
  Dashboard: {
    header: 'Board',
    keys: [{ id: 'k1', rawKey: 'r', maskedKey: 'm', created_at: '2026-01-01' }],
  },
  SlackAlertChannel: { url: 'https://hooks.slack.com/services/T0/B0/x' },
  WebhookAlertChannel: {
    name: 'Hook',
    url: 'https://hooks.example.com/in',
    webhookSecret: 's',
    headers: [{ key: 'Authorization', value: 'v' }],
    queryParameters: [{ key: 'token', value: 'v' }],
  },
  PagerdutyAlertChannel: { serviceKey: 'k' },
  OpsgenieAlertChannel: { name: 'Ops', apiKey: 'k', region: 'EU', priority: 'P1' },
};

const STEM = 'c4n4ry';
/** A quote, a backslash and a non-ASCII letter: the canary also shows up escaped, or not at all. */
const canary = (n: number) => `${STEM}"\\-é-${n}`;

/** Values that break the rules a string field may have, each holding the canary where it can. */
const RULE_BREAKERS: { rule: string; value: (c: string) => unknown }[] = [
  { rule: 'missing scheme', value: (c) => `hooks.slack.com/services/T0/B0/${c}` },
  { rule: 'ftp scheme', value: (c) => `ftp://files.example.com/${c}` },
  { rule: 'javascript scheme', value: (c) => `javascript:alert("${c}")` },
  { rule: 'not a URL at all', value: (c) => `${c} with spaces` },
  { rule: 'too long', value: (c) => c.padEnd(70_000, 'x') },
  { rule: 'wrong type: object', value: (c) => ({ secret: c }) },
  { rule: 'wrong type: list', value: (c) => [c] },
  { rule: 'wrong type: number', value: () => 4_242_424_242 },
  { rule: 'empty', value: () => '' },
];

const PROP_PATH = Symbol.for('@monitor/constructs.propPath');
type Made = { kind: ResourceKind; logicalId: string; [PROP_PATH](path: string): string };
type ConstructClass = new (id: string, props: object) => Made;
const classOf = (name: string) =>
  (constructs as unknown as Record<string, ConstructClass>)[name] as ConstructClass;

/** `props` with `value` at `path` (`headers[0].value`); a copy. */
function withValue(props: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(props);
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys.at(-1) as string] = value;
  return copy;
}

interface Case {
  construct: string;
  logicalId: string;
  kind: ResourceKind;
  rulePath: string;
  propPath: string;
  rule: string;
  props: Record<string, unknown>;
}

/** Synthesize constructs in this process, as the loader would: payloads and diagnostics. */
function synthesize(made: { construct: string; logicalId: string; props: Record<string, unknown> }[]) {
  const session = constructs.createSession();
  const instances = made.map((m) => new (classOf(m.construct))(m.logicalId, m.props));
  const result = constructs.synth({}, session);
  constructs.closeSession();
  return { instances, ...result };
}

/**
 * Every sensitive field the samples hold, by the kind definitions, with every rule breaker that
 * the field's rules reject (kept only when synthesis reports an error at that prop).
 */
function cases(): { all: Case[]; covered: Set<string> } {
  const samples = synthesize(
    Object.entries(SAMPLES).map(([construct, props]) => ({
      construct,
      logicalId: `sample-${construct}`,
      props,
    })),
  );
  expect(samples.diagnostics).toEqual([]);
  const candidates: Case[] = [];
  const covered = new Set<string>();
  samples.resources.forEach((resource, i) => {
    const instance = samples.instances[i] as Made;
    const construct = resource.construct;
    const def = KINDS[resource.kind];
    // The sensitive paths this sample holds a value at, by the definition and its conditions.
    const held = def.sensitive.filter(
      (s) => Object.keys(sensitiveValues({ ...def, sensitive: [s] }, resource.payload)).length > 0,
    );
    for (const { path: rulePath } of held) {
      covered.add(`${resource.kind} ${rulePath}`);
      // Every list of a sample has one item.
      const propPath = instance[PROP_PATH](rulePath.replace(/\[\]/g, '[0]'));
      for (const { rule, value } of RULE_BREAKERS) {
        const n = candidates.length;
        candidates.push({
          construct,
          logicalId: `c${n}`,
          kind: resource.kind,
          rulePath,
          propPath,
          rule,
          props: withValue(SAMPLES[construct] as Record<string, unknown>, propPath, value(canary(n))),
        });
      }
    }
  });
  const { diagnostics } = synthesize(candidates);
  const broken = (c: Case) =>
    diagnostics.some(
      (d) => d.severity === 'error' && d.logicalId === c.logicalId && d.path.startsWith(c.propPath),
    );
  return { all: candidates.filter(broken), covered };
}

function projectSource(all: Case[]): string {
  const names = [...new Set(all.map((c) => c.construct))].sort();
  const lines = all.map(
    (c) => `new ${c.construct}(${JSON.stringify(c.logicalId)}, ${JSON.stringify(c.props)} as never);`,
  );
  return `import { ${names.join(', ')} } from '@monitor/constructs';\n${lines.join('\n')}\n`;
}

describe('no message quotes a sensitive value', () => {
  const setup = projectsUnderTest();

  it('every sensitive field of every kind, every rule it breaks: validate, diff and deploy, text, --json and verbose', async () => {
    const { all, covered } = cases();
    for (const def of Object.values(KINDS))
      for (const { path } of def.sensitive)
        expect(covered.has(`${def.kind} ${path}`), `no sample holds ${def.kind} ${path}`).toBe(true);
    // Every field breaks at least its type; the Slack URL (the reported case) its scheme too.
    for (const key of covered) {
      const rules = all.filter((c) => `${c.kind} ${c.rulePath}` === key).map((c) => c.rule);
      expect(rules, key).toContain('wrong type: object');
      if (key === 'AlertChannel config.url')
        expect(rules).toEqual(
          expect.arrayContaining(['missing scheme', 'ftp scheme', 'javascript scheme', 'empty']),
        );
    }

    const { h, run } = await setup({ 'secrets.monitor.ts': projectSource(all) });
    const runs = [
      ['validate'],
      ['validate', '--json'],
      ['validate', '--verbose'],
      ['diff'],
      ['diff', '--json'],
      ['diff', '--debug'],
      ['deploy', '--yes'],
      ['deploy', '--yes', '--json'],
      ['deploy', '--yes', '--debug'],
    ];
    for (const args of runs) {
      const r = await run(...args);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(3);
      const output = `${r.stdout}\n${r.stderr}`;
      expect(output.toLowerCase(), args.join(' ')).not.toContain(STEM);
      if (!args.includes('--json')) continue;
      // Each broken rule is reported, at its prop, without the value.
      const { diagnostics } = JSON.parse(r.stdout) as {
        diagnostics: { logicalId: string; path: string; message: string }[];
      };
      for (const c of all)
        expect(
          diagnostics.some((d) => d.logicalId === c.logicalId && d.path.startsWith(c.propPath)),
          `${c.construct} ${c.propPath} ${c.rule}`,
        ).toBe(true);
      const slack = all.find((c) => c.construct === 'SlackAlertChannel' && c.rule === 'missing scheme');
      const message = diagnostics.find((d) => d.logicalId === slack?.logicalId)?.message;
      expect(message).toMatch(/^must be an http\(s\) URL, got \(sensitive value, \d+ characters\)$/);
      expect(envelopeOf(r).exitCode).toBe(3);
    }
    expect(h.writes()).toEqual([]);
  });
});
