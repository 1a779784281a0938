import { describe, expect, it } from 'vitest';
import type { Operation } from '../plan/plan.js';
import { planToJson } from '../plan/plan-json.js';
import { planOf } from '../test-support/doubles.js';
import { renderApplyMarkdown, renderPlanMarkdown } from './markdown.js';
import { maskedPhone } from './phone.js';
import { renderPlanText } from './render.js';
import { PLAIN } from './style.js';

const NUMBER = '+31612344821';
const base = { construct: 'SmsAlertChannel', dependsOn: [], desiredHash: 'h', protect: false };
const sms: Operation = {
  ...base,
  kind: 'AlertChannel',
  logicalId: 'oncall-sms',
  name: NUMBER,
  action: 'create',
  recreate: false,
  payload: { type: 'SMS', config: { number: NUMBER } },
};
const call: Operation = {
  ...base,
  kind: 'AlertChannel',
  logicalId: 'oncall-call',
  name: '+44 20 7946 0958',
  action: 'update',
  physicalId: 3,
  payload: { type: 'CALL', config: { number: '+44 20 7946 0958' } },
  changes: [{ path: 'config.number', before: '+44 20 7946 0000', after: '+44 20 7946 0958', cause: 'code' }],
  drift: false,
  unchangedAttributes: 5,
};
const gone: Operation = {
  kind: 'AlertChannel',
  logicalId: 'old',
  name: '+1 415 555 0100',
  action: 'delete',
  physicalId: 4,
  dependsOn: [],
};

describe('phone numbers in plans for people', () => {
  it('masks a number to its first three characters and last four digits, never longer than it was', () => {
    expect(maskedPhone('+31 6 12344821')).toBe('+31 •••• 4821');
    expect(maskedPhone(NUMBER)).toBe('+31••••4821');
    expect(maskedPhone('12345678').length).toBeLessThanOrEqual(8);
    expect(maskedPhone('12345678').endsWith('5678')).toBe(true);
  });

  it('shows no SMS or call number whole in text or markdown, names, payloads and changes alike; --json keeps them', () => {
    const plan = planOf([sms, call, gone]);
    const outputs = [
      renderPlanText(plan, PLAIN),
      renderPlanMarkdown(plan, { project: 'p', account: 'a' }),
      renderApplyMarkdown({ status: 'no-changes', plan }, { project: 'p', account: 'a' }),
    ];
    for (const out of outputs) {
      for (const whole of [NUMBER, '7946 0958', '7946 0000', '555 0100', '612344821'])
        expect(out).not.toContain(whole);
    }
    expect(outputs[0]).toContain('+31••••4821');
    expect(outputs[1]).toContain('4821');
    expect(JSON.stringify(planToJson(plan))).toContain(NUMBER);
  });
});
