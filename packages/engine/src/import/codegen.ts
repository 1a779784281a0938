import type { ResourceKind } from '@monitor/api';
import { IndentationText, Project, QuoteKind, ts } from 'ts-morph';
import { ByPhysicalId } from '../identity.js';
import type { ImportedResource } from './import.js';
import { isRefValue, isSecretValue, type PropValue } from './values.js';

/** A generated module: its path relative to the output directory, and its text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

type Value = PropValue;

const LINE = 100;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Characters that are invisible or change how the text around them reads: controls (C0 and C1),
 * format characters (bidi overrides and isolates, zero-width ones, the BOM), lone surrogates and
 * every space but the plain one. Generated code holds them only as `\u` escapes.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}]/gu;

function escapeInvisible(text: string, keep: string): string {
  return text.replace(INVISIBLE, (c) => {
    if (keep.includes(c)) return c;
    const code = c.codePointAt(0) as number;
    const hex = code.toString(16).toUpperCase();
    return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
  });
}

// Non-ASCII text (names in any language) stays readable: `neverAsciiEscape` is the printer's own
// switch for it; what must not be raw is escaped after.
const printer = ts.createPrinter({ neverAsciiEscape: true } as ts.PrinterOptions);
const scratch = ts.createSourceFile('literal.ts', '', ts.ScriptTarget.Latest);

/**
 * `text` as a TypeScript literal, written by the TypeScript printer: single-quoted, or a template
 * literal when it has line breaks (kept as lines; a `\r` stays an escape, so CRLF text keeps its
 * CRs). Invisible and text-reordering characters are `\u` escapes.
 */
export function literal(text: string): string {
  const multiline = text.includes('\n');
  const node = multiline
    ? ts.factory.createNoSubstitutionTemplateLiteral(text)
    : ts.factory.createStringLiteral(text, true);
  return escapeInvisible(printer.printNode(ts.EmitHint.Expression, node, scratch), multiline ? '\n ' : ' ');
}

interface PrintContext {
  /** The variable of an imported resource, by `Kind#physicalId`. */
  variableOf: (kind: ResourceKind, physicalId: string | number) => ImportedResource | undefined;
  /** Called for every name the printed value needs imported: a class, `requiredEnv`, a variable of another module. */
  uses: (name: string, module?: string) => void;
}

/**
 * A props value as TypeScript: short ones on one line, others one item per line. `column` is
 * where the value starts on its line and `tail` what follows it there.
 */
function print(value: Value, indent: string, ctx: PrintContext, column = indent.length, tail = 1): string {
  if (value === null || typeof value !== 'object')
    return typeof value === 'string' ? literal(value) : String(value);
  if (isRefValue(value)) {
    const target = ctx.variableOf(value.kind, value.physicalId);
    if (target !== undefined) {
      ctx.uses(target.variable, target.module);
      return target.variable;
    }
    // The class of the kind's name refers to an existing one: `AlertChannel.fromId(12)`.
    ctx.uses(value.kind);
    return `${value.kind}.fromId(${typeof value.physicalId === 'string' ? literal(value.physicalId) : value.physicalId})`;
  }
  if (isSecretValue(value)) {
    ctx.uses('requiredEnv');
    return `requiredEnv(${literal(value.env ?? '')})`;
  }
  const inner = `${indent}  `;
  const items: string[] = Array.isArray(value)
    ? value.map((item) => print(item, inner, ctx))
    : Object.entries(value).map(([k, v]) => {
        const key = `${IDENTIFIER.test(k) ? k : literal(k)}: `;
        return `${key}${print(v, inner, ctx, inner.length + key.length)}`;
      });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  if (items.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const oneLine = `${open}${items.join(', ')}${close}`;
  if (!oneLine.includes('\n') && column + oneLine.length + tail <= LINE) return oneLine;
  return `${open.trim()}\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}${close.trim()}`;
}

/**
 * A props value as TypeScript, as import writes it, for `pull` to write in place: `variableOf`
 * names the variable that holds a referenced resource (every reference must have one).
 */
export function printPropValue(
  value: Value,
  options: {
    indent: string;
    column: number;
    tail: number;
    variableOf: (kind: ResourceKind, physicalId: string | number) => string | undefined;
  },
): string {
  const ctx: PrintContext = {
    variableOf: (kind, physicalId) => {
      const variable = options.variableOf(kind, physicalId);
      return variable === undefined ? undefined : ({ variable } as ImportedResource);
    },
    uses: () => {},
  };
  return print(value, options.indent, ctx, options.column, options.tail);
}

/** `import { a, b } from 'x';`, one name per line when that is too long. */
function importLine(names: string[], from: string): string {
  const sorted = names.sort((a, b) => a.localeCompare(b, 'en'));
  const line = `import { ${sorted.join(', ')} } from '${from}';`;
  return line.length <= LINE
    ? line
    : `import {\n${sorted.map((n) => `  ${n},`).join('\n')}\n} from '${from}';`;
}

export interface CodegenOptions {
  /** What follows a module's name in its file name: `.monitor.ts`. */
  extension: string;
  /** The first lines of every file, as a comment. */
  banner: string;
}

/** One TypeScript module per `module` of the imported resources, formatted, in a stable order. */
export function generateModules(
  resources: readonly ImportedResource[],
  options: CodegenOptions,
): GeneratedFile[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single },
  });
  const byId = ByPhysicalId.of(resources, (r) => [r.kind, r.physicalId]);
  const modules = [...new Set(resources.map((r) => r.module))].sort();
  const specifier = (module: string) => `./${module}${options.extension.replace(/\.ts$/, '')}`;
  const files: GeneratedFile[] = [];
  for (const module of modules) {
    const classes = new Set<string>();
    const fromModules = new Map<string, Set<string>>();
    const ctx: PrintContext = {
      variableOf: (kind, physicalId) => byId.tryFind(kind, physicalId),
      uses: (name, from) => {
        if (from === undefined) classes.add(name);
        else if (from !== module) {
          const names = fromModules.get(from) ?? new Set<string>();
          names.add(name);
          fromModules.set(from, names);
        }
      },
    };
    const statements = resources
      .filter((r) => r.module === module)
      .map((r) => {
        classes.add(r.construct);
        // A name may hold `*/` (which would end the comment) or line breaks.
        const name =
          r.name === undefined
            ? undefined
            : escapeInvisible(r.name.replace(/\*\//g, '*\\/').replace(/\s+/g, ' '), ' ');
        const doc = `/** ${r.kind} ${String(r.physicalId)}${name === undefined ? '' : ` “${name}”`}, imported from the account. */`;
        const start = `export const ${r.variable} = new ${r.construct}(${literal(r.logicalId)}, `;
        return `${doc}\n${start}${print(r.props, '', ctx, start.length, 2)});`;
      });
    const imports = [
      importLine([...classes], '@monitor/constructs'),
      ...[...fromModules]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([from, names]) => importLine([...names], specifier(from))),
    ];
    // One parse and one format per file: adding statements one by one re-parses the file each time.
    const file = project.createSourceFile(
      `/${module}${options.extension}`,
      `${options.banner}\n${imports.join('\n')}\n\n${statements.join('\n\n')}\n`,
    );
    file.formatText({ indentSize: 2, convertTabsToSpaces: true });
    files.push({ path: `${module}${options.extension}`, text: file.getFullText() });
  }
  return files;
}
