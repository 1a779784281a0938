import { describe, expect, it } from 'vitest';
import { asciiSafeJson } from './output.js';

describe('asciiSafeJson', () => {
  it('writes what a terminal acts on as \\u escapes, and reads back as the same data', () => {
    const value = { name: 'a\u001b[2J\u009b31m\u007f\u202eevil\u200b\u2028\u{e0041} 👩‍💻 café' };
    const json = asciiSafeJson(value);
    expect(json).not.toMatch(/[\p{Cc}\p{Cf}\u2028](?<!\n)/u);
    expect(json).toContain('a\\u001b[2J\\u009b31m\\u007f\\u202eevil\\u200b\\u2028\\udb40\\udc41');
    expect(JSON.parse(json)).toEqual(value);
  });
});
