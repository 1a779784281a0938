import { KINDS, messageRedactor } from '@monitor/api/definitions';
import type { Conflict } from './types.js';

/**
 * What a conflict's field and value may show: through the kind's message redactor, which knows
 * whether the field is sensitive (only the field and its value are known here).
 */
export function conflictRedactor(c: Conflict): (text: string) => string {
  return messageRedactor(KINDS[c.kind], { [c.field]: c.value }, { partial: true });
}

/** What a conflict is, and the ways out, for people (diagnostics) and scripts (`--json`). */
export function describeConflict(c: Conflict): { message: string; hint: string } {
  const { message, hint } = conflictText(c);
  const safe = conflictRedactor(c);
  return { message: safe(message), hint: safe(hint) };
}

function conflictText(c: Conflict): { message: string; hint: string } {
  if (c.reason === 'unresolved') return unresolvedText(c);
  if (c.reason === 'referenced') return referencedText(c);
  const { noun } = KINDS[c.kind];
  const id = String(c.live?.id);
  const live = `id ${id}${c.live?.name === undefined ? '' : `, ${JSON.stringify(c.live.name)}`}`;
  const holder = c.holder ?? '';
  if (c.reason === 'identity') {
    return c.holder === undefined
      ? {
          message: `state records it at id ${id}, but the account holds another resource there (${live}): a state problem, so nothing is changed there`,
          hint: `if the state was edited by hand or belongs to another account or service, restore it; to forget the entry, monitor state rm ${c.kind}:${c.logicalId}, then adopt the resource or let the deploy create one`,
        }
      : {
          message: `state records it at id ${id}, but that id holds the resource state records for "${holder}" (${live}): the state's ids were swapped or edited by hand`,
          hint: `give each entry its own id again (monitor state show, then monitor state push of a corrected copy), or forget both (monitor state rm) and find them again with monitor import --recover`,
        };
  }
  if (c.reason === 'rename') {
    return {
      message: `would be created while ${c.kind} "${holder}" (${live}), which has the same ${c.field} "${c.value}", leaves the code: a renamed logical id`,
      hint: `if "${c.logicalId}" is "${holder}" renamed, add \`aliases: ['${holder}']\` to the construct's options, new's third argument: ${withOption(c, `aliases: ['${holder}']`)}, so the resource keeps its id and only its logical id moves; if it is another resource, deploy the removal of "${holder}" first`,
    };
  }
  if (c.reason === 'owned') {
    return {
      message: `${article(noun)} ${noun} with ${c.field} "${c.value}" (${live}) belongs to project "${holder}", which shares this state database`,
      hint: `use another ${c.field}; or have project "${holder}" remove it from its code (or forget it: monitor state rm) before adopting it here`,
    };
  }
  if (c.reason === 'taken') {
    return {
      message: `${c.field} "${c.value}" is held by ${c.kind} "${holder}" (${live}), which this project owns and keeps`,
      hint: `use another ${c.field}, or remove "${holder}" in an earlier deploy`,
    };
  }
  return {
    message: `${article(noun)} ${noun} with ${c.field} "${c.value}" already exists in the account (${live}) and this project does not own it`,
    hint: `to manage that ${noun} from this construct, add \`adopt: true\` to its options, new's third argument: ${withOption(c, 'adopt: true')} (it is adopted once, then owned); if this project's state was lost, monitor import --recover finds its constructs in the account again; otherwise use another ${c.field}`,
  };
}

/** A reference to another project's construct that its state does not resolve. */
function unresolvedText(c: Conflict): { message: string; hint: string } {
  const project = c.holder ?? '';
  const colon = c.value.indexOf(':');
  const [kind, logicalId] = [c.value.slice(0, colon), c.value.slice(colon + 1)];
  const written = `${kind}.fromProject('${project}', '${logicalId}')`;
  const first = `deploy project "${project}" first (monitor deploy --project ${project} in its workspace, or monitor deploy --all, which deploys projects in dependency order), then this one`;
  if (c.missing === 'project') {
    return {
      message: `references ${written}, but no project "${project}" has state in this account: it has not deployed here, or is not of this workspace or state database`,
      hint: `check the name (the projectName in its monitor.config.ts); references resolve against the projects of the same workspace (monitor.workspace.ts) with file state, or of the same state database; ${first}`,
    };
  }
  if (c.missing === 'resource') {
    return {
      message: `references ${written}, but the ${kind} project "${project}" records for it is gone from the account`,
      hint: `deploy project "${project}" to create it again (monitor deploy --project ${project}), then this one`,
    };
  }
  return {
    message: `references ${written}, which project "${project}" has not deployed into this account`,
    hint: `${first}; if "${logicalId}" is not in project "${project}", fix the logical id`,
  };
}

/** A delete (or replace) of a resource other projects' constructs reference. */
function referencedText(c: Conflict): { message: string; hint: string } {
  const usedBy = c.usedBy ?? [];
  const projects = [...new Set(usedBy.map((use) => use.slice(0, use.indexOf('/'))))];
  const by = usedBy.map((use) => use.replace('/', ': ')).join(', ');
  const names = projects.map((p) => `"${p}"`).join(', ');
  return {
    message: `${c.value === 'replace' ? 'would be replaced (deleted, and made again with another id)' : 'would be deleted'}, but project${projects.length === 1 ? '' : 's'} ${names} reference${projects.length === 1 ? 's' : ''} it (${by}): ${projects.length === 1 ? 'its' : 'their'} alerts would go nowhere`,
    hint: `remove the references from project${projects.length === 1 ? '' : 's'} ${names} and deploy ${projects.length === 1 ? 'it' : 'them'} first; to delete it anyway and leave ${projects.length === 1 ? 'that reference' : 'those references'} unresolved, run again with --allow-deletes --force-orphan`,
  };
}

/** The construct's `new` with an option, for a hint to copy: `new CheckGroup('id', { … }, { adopt: true })`. */
function withOption(c: Conflict, option: string): string {
  return `new ${c.construct ?? c.kind}('${c.logicalId}', { … }, { ${option} })`;
}

/** `a` or `an`, by the sound the noun starts with (the kinds' nouns start with a letter sounded as written). */
function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? 'an' : 'a';
}
