import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import type { ValidationError } from './errors.js';
import { formatIssuePath } from './issue-path.js';
import type { KindDefinition } from './kinds/definition.js';
import { KINDS } from './kinds/index.js';
import { describeSensitive, messageRedactor, REDACTED, Redactor } from './redact.js';
import { startTestServer, TEST_ACCOUNT, TEST_KEY } from './test-support/server.js';

/** The messages a kind's create schema gives for `payload`, through the message redactor. */
function messages(def: KindDefinition, payload: Record<string, unknown>): { raw: string[]; safe: string[] } {
  const result = def.createSchema.safeParse(payload);
  const raw = result.success
    ? []
    : result.error.issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`);
  return { raw, safe: raw.map(messageRedactor(def, payload)) };
}

describe('messageRedactor', () => {
  const url = 'hooks.slack.com/services/T0/B0/c4n4ry';

  it('a Slack URL without a scheme: the rule is named, the value described and never quoted', () => {
    const { raw, safe } = messages(KINDS.AlertChannel, { type: 'SLACK', config: { url } });
    // What the schema says on its own: the reason to have the redactor at all.
    expect(raw.join('\n')).toContain(url);
    expect(safe).toEqual([
      `config.url: must be an http(s) URL, got (sensitive value, ${url.length} characters)`,
    ]);
  });

  it('asks the kind definition: the same value in a webhook url (not a credential) is quoted', () => {
    const { safe } = messages(KINDS.AlertChannel, { type: 'WEBHOOK', config: { name: 'w', url } });
    expect(safe.join('\n')).toContain(`got "${url}"`);
  });

  it('hides a value of any length or type at a sensitive path', () => {
    const hide = messageRedactor(KINDS.AlertChannel, {
      type: 'SLACK',
      config: { url: 'x', channel: '#ops' },
    });
    expect(hide('url: must be an http(s) URL, got "x"')).toBe(
      'url: must be an http(s) URL, got (sensitive value, 1 character)',
    );
    // Unquoted, a one-letter value is an ordinary letter: only quoted forms of short values go.
    expect(hide('expected x')).toBe('expected x');
    const object = { nested: 'c4n4ry-in-object' };
    const hideObject = messageRedactor(KINDS.AlertChannel, {
      type: 'PAGERDUTY',
      config: { serviceKey: object },
    });
    expect(hideObject(`got ${JSON.stringify(object)}`)).toBe('got (sensitive value: an object)');
    expect(hideObject('the key c4n4ry-in-object')).toBe('the key (sensitive value, 16 characters)');
    const hideNumber = messageRedactor(KINDS.CheckGroup, {
      apiCheckDefaults: { basicAuth: { username: 'u', password: 90210 } },
    });
    expect(hideNumber('got 90210')).toBe('got (sensitive value: a number)');
  });

  it('follows the conditions of the definition: a variable is sensitive only when secret', () => {
    const payload = {
      environmentVariables: [
        { key: 'A', value: 'plain-value', secret: false },
        { key: 'B', value: 'secret-value', secret: true },
      ],
    };
    const hide = messageRedactor(KINDS.CheckGroup, payload);
    expect(hide('"plain-value" and "secret-value"')).toBe(
      '"plain-value" and (sensitive value, 12 characters)',
    );
  });

  it('with a part of a payload, a path sensitive under a condition counts as sensitive', () => {
    const part = { config: { url: 'https://hooks.slack.com/T0' } };
    expect(messageRedactor(KINDS.AlertChannel, part)('"https://hooks.slack.com/T0"')).toBe(
      '"https://hooks.slack.com/T0"',
    );
    expect(messageRedactor(KINDS.AlertChannel, part, { partial: true })('"https://hooks.slack.com/T0"')).toBe(
      describeSensitive('https://hooks.slack.com/T0'),
    );
    // As a conflict names its field: by its path.
    expect(
      messageRedactor(
        KINDS.AlertChannel,
        { 'config.url': 'https://hooks.slack.com/T0' },
        { partial: true },
      )('https://hooks.slack.com/T0'),
    ).toBe(describeSensitive('https://hooks.slack.com/T0'));
  });

  it('leaves a payload with nothing sensitive alone', () => {
    const hide = messageRedactor(KINDS.StatusPage, { name: 'c4n4ry', url: 'c4n4ry' });
    expect(hide('url "c4n4ry" is taken')).toBe('url "c4n4ry" is taken');
  });
});

describe('Redactor', () => {
  it('replaces a quoted value whole, before the bare value inside it', () => {
    const r = new Redactor();
    r.add('abcd-secret');
    expect(r.redact('got "abcd-secret", abcd-secret')).toBe(`got ${REDACTED}, ${REDACTED}`);
  });

  it('finds each of thousands of secrets wherever a text holds it, and leaves other texts alone', () => {
    const redactor = new Redactor();
    const secrets = Array.from({ length: 3000 }, (_, i) => `pw-${i}${'x'.repeat(i % 37)}`);
    for (const secret of secrets) redactor.add(secret);
    for (const secret of [secrets[0], secrets[1234], secrets[2999]] as string[]) {
      expect(redactor.redact(secret)).toBe(REDACTED);
      expect(redactor.redact(`/v1/things?key=${encodeURIComponent(secret)}`)).toBe(
        `/v1/things?key=${REDACTED}`,
      );
      expect(redactor.redact(`{"password":"${secret}"} and ${secret}.`)).toBe(
        `{"password":${REDACTED}} and ${REDACTED}.`,
      );
    }
    const text = '/v1/check-groups?limit=100&nextId=pw-9 (no whole secret here)';
    expect(redactor.redact(text)).toBe(text);
  });

  it('never takes booleans or empty strings for secrets', () => {
    const r = new Redactor();
    r.add(true);
    r.add('');
    expect(r.redact('must be true, got ""')).toBe('must be true, got ""');
  });
});

describe('the client refuses a request without quoting its secrets', () => {
  it('a Slack channel whose URL has no scheme, and a short one', async () => {
    const server = await startTestServer(() => ({ status: 500 }));
    const client = createClient({ baseUrl: server.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT, env: {} });
    try {
      for (const url of ['hooks.slack.com/services/T0/B0/c4n4ry', 'c4n']) {
        const error = (await client.alertChannels
          .create({ type: 'SLACK', config: { url } })
          .catch((e: unknown) => e)) as ValidationError;
        expect(error.code).toBe('validation');
        const text = JSON.stringify({ ...error.toJSON(), issues: error.issues, message: error.message });
        expect(text).not.toContain(url);
        expect(error.issues[0]?.message).toBe(`must be an http(s) URL, got ${describeSensitive(url)}`);
      }
      expect(server.requests).toHaveLength(0);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
