import type { PolicyConfigProblem } from '../policy/select.js';

/** The config's `policies` or `policySeverity` are wrong: every problem, at its path. */
export class PolicyConfigError extends Error {
  readonly problems: PolicyConfigProblem[];
  constructor(problems: PolicyConfigProblem[]) {
    super(`the config's policies are invalid: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    this.problems = problems;
  }
}

/** A config was asked for an environment it does not define. */
export class EnvironmentError extends Error {
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.hint = hint;
  }
}
