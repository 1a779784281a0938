import type { ResourceKind } from '@monitor/api';
import { type AuditReport, auditAccount } from '../audit/audit.js';
import { sourceReader } from '../positions/source-reader.js';
import { type AccountSnapshot, readAccount, type Target } from './target.js';

export interface AuditOptions {
  /** The account as `readAccount` read it for this target, started early. @default read now */
  snapshot?: Promise<AccountSnapshot>;
  /** How a take-over is spelled, with the flags of this run (`--config`, `--env`). */
  importCommand?: (kind: ResourceKind, id: string | number) => string;
}

export interface AuditResult {
  report: AuditReport;
  /** API calls the audit made. */
  requests: number;
}

/**
 * `monitor audit`: read the account, this project's state and the other projects' (who owns
 * what), and run the project's construct policies and the built-ins over every resource there.
 * Reads only; takes no lock.
 */
export async function audit(target: Target, options: AuditOptions = {}): Promise<AuditResult> {
  const { project } = target;
  const [account, otherStates] = await Promise.all([
    options.snapshot ?? readAccount(target),
    target.otherProjects?.all(),
  ]);
  const report = auditAccount({
    project: project.config.projectName,
    environment: project.config.environment,
    live: account.live,
    state: account.state,
    otherOwners: account.otherOwners,
    otherStates,
    code: project.resources,
    policies: project.config.policies,
    sourceOf: sourceReader(),
    ...(options.importCommand === undefined ? {} : { importCommand: options.importCommand }),
  });
  return { report, requests: account.requests };
}
