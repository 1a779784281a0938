import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandLine } from './options.js';

describe('commandLine', () => {
  it("quotes a word with control characters in bash's $'…', which the shell reads back as the word", () => {
    const id = "a\u001b[2J\u0007b'c\\d\u202e\u{e0041} e";
    const line = commandLine({}, 'rca', 'get', id);
    expect(line).toBe("monitor rca get $'a\\x1b[2J\\x07b\\'c\\\\d\\u202e\\U000e0041 e'");
    expect(line).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    const word = line.slice('monitor rca get '.length);
    expect(execFileSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8' })).toBe(id);
  });

  it('leaves plain words bare and quotes the others as before', () => {
    expect(commandLine({ config: 'my dir/monitor.config.ts', local: true }, 'diff', "it's")).toBe(
      "monitor diff 'it'\\''s' --config 'my dir/monitor.config.ts' --local",
    );
  });
});
