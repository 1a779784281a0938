import type { Plan } from '../plan/types.js';

/**
 * Phone numbers are personal data: a plan for people (text, the pull-request comment) shows an SMS
 * or call channel's number masked, `+31 •••• 4821`; `--json` and saved plans keep it whole, for
 * scripts that need it.
 */

/**
 * `+31 6 12344821` → `+31 •••• 4821`: its first three characters and its last four digits, never
 * longer than the number (a comment's length is bounded before numbers are masked):
 * `+31612344821` → `+31••••4821`.
 */
export function maskedPhone(number: string): string {
  const digits = number.replace(/[^\d]/g, '');
  if (digits.length < 7) return number;
  const [prefix, last] = [number.trim().slice(0, 3), digits.slice(-4)];
  const shapes = [
    `${prefix} •••• ${last}`,
    `${prefix}••••${last}`,
    `${'•'.repeat(number.length - 4)}${last}`,
  ];
  return shapes.find((shape) => shape.length <= number.length) as string;
}

const PHONE = /^\+?[\d\s().-]{7,}$/;

function numbersOf(value: unknown, out: Set<string>): void {
  if (value === null || typeof value !== 'object') return;
  const config = (value as { config?: unknown }).config;
  const type = (value as { type?: unknown }).type;
  if ((type === 'SMS' || type === 'CALL') && config !== null && typeof config === 'object') {
    const number = (config as { number?: unknown }).number;
    if (typeof number === 'string' && PHONE.test(number)) out.add(number);
  }
}

/** Every phone number of the plan's SMS and call channels (payloads, changes, the names of deletes). */
export function planPhoneNumbers(plan: Pick<Plan, 'operations'>): Set<string> {
  const out = new Set<string>();
  for (const op of plan.operations) {
    if (op.kind !== 'AlertChannel') continue;
    if (op.action !== 'delete') numbersOf(op.payload, out);
    if (op.name !== undefined && PHONE.test(op.name)) out.add(op.name);
    if (op.action === 'update' || op.action === 'adopt' || op.action === 'move') {
      for (const c of op.changes) {
        for (const v of [c.before, c.after]) {
          if (typeof v === 'string' && PHONE.test(v) && c.path.endsWith('number')) out.add(v);
          else numbersOf({ type: op.payload.type, config: v }, out);
        }
      }
    }
  }
  return out;
}

/** `text` with each of `numbers` masked, longest first (one may hold another). */
export function maskPhones(text: string, numbers: ReadonlySet<string>): string {
  let out = text;
  for (const number of [...numbers].sort((a, b) => b.length - a.length)) {
    if (out.includes(number)) out = out.split(number).join(maskedPhone(number));
  }
  return out;
}
