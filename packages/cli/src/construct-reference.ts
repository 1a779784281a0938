import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  type InterfaceDeclaration,
  type JSDocableNode,
  Node,
  Project,
  type PropertySignature,
} from 'ts-morph';

/** A JSDoc'd node's description and tags, as plain text on one line each. */
function docOf(node: JSDocableNode): { description: string; tags: Map<string, string> } {
  const docs = node.getJsDocs();
  const description = docs
    .map((d) => d.getDescription().trim())
    .join(' ')
    .replace(/\s+/g, ' ');
  const tags = new Map<string, string>();
  for (const doc of docs) {
    for (const tag of doc.getTags())
      tags.set(tag.getTagName(), (tag.getCommentText() ?? '').replace(/\s+/g, ' ').trim());
  }
  return { description, tags };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A prop's row; an object-literal type gets a row per member below it (`state.backend`). */
function propertyRows(property: PropertySignature, prefix = ''): string[] {
  const typeNode = property.getTypeNode();
  if (typeNode !== undefined && Node.isTypeLiteral(typeNode)) {
    return [
      propertyRow(property, prefix, 'object'),
      ...typeNode
        .getProperties()
        .flatMap((member) => propertyRows(member, `${prefix}${property.getName()}.`)),
    ];
  }
  return [propertyRow(property, prefix)];
}

function propertyRow(property: PropertySignature, prefix: string, typeText?: string): string {
  const { description, tags } = docOf(property);
  const type =
    typeText ?? property.getTypeNode()?.getText().replace(/\s+/g, ' ') ?? property.getType().getText();
  const name = `\`${prefix}${property.getName()}${property.hasQuestionToken() ? '?' : ''}\``;
  const deprecated = tags.has('deprecated') ? `**Deprecated:** ${tags.get('deprecated')} ` : '';
  const fallback = tags.get('default');
  return `| ${name} | \`${cell(type)}\` | ${fallback === undefined ? (property.hasQuestionToken() ? '' : 'required') : cell(fallback)} | ${cell(`${deprecated}${description}`)} |`;
}

/** `Props<X>`, a module's private alias, written out (`X & AlertChannelSwitches`). */
function expandLocalAlias(node: Node, text: string): string {
  const m = /^(\w+)<(\w+)>$/.exec(text);
  if (m === null) return text;
  const alias = node.getSourceFile().getTypeAlias(m[1] as string);
  const parameter = alias?.getTypeParameters()[0]?.getName();
  const body = alias?.getTypeNode()?.getText();
  if (alias === undefined || parameter === undefined || body === undefined || alias.isExported()) return text;
  return body.replace(new RegExp(`\\b${parameter}\\b`, 'g'), m[2] as string);
}

/** The type declarations of the installed `@monitor/constructs`: what the reference documents. */
function installedConstructs(): string {
  const root = dirname(createRequire(import.meta.url).resolve('@monitor/constructs/package.json'));
  return join(root, 'dist', 'index.d.ts');
}

/** The functions of the package that projects call (the rest serve the loader). */
const USER_FUNCTIONS = ['defineConfig', 'currentEnvironment', 'requiredEnv'];

/**
 * The construct reference, generated with ts-morph from the TSDoc in `@monitor/constructs`' type
 * declarations (or of the module at `entry`, such as a copy of its sources): every construct class with
 * how to create it, and every props interface with each prop's type, default and description.
 */
export function constructReference(entry: string = installedConstructs()): string {
  const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { strict: true } });
  const index = project.addSourceFileAtPath(entry);
  project.resolveSourceFileDependencies();

  const exported = [...index.getExportedDeclarations()].flatMap(([name, declarations]) =>
    declarations.map((declaration) => ({ name, declaration })),
  );
  const classes = exported.filter(({ declaration }) => Node.isClassDeclaration(declaration));
  const interfaces = exported.filter(
    ({ name, declaration }) =>
      Node.isInterfaceDeclaration(declaration) &&
      (name.endsWith('Props') || ['MonitorConfig', 'AlertChannelSwitches'].includes(name)),
  );
  const options = exported.find(
    ({ name, declaration }) => name === 'ConstructOptions' && Node.isInterfaceDeclaration(declaration),
  )?.declaration;

  const out: string[] = [
    '# Construct reference',
    '',
    '<!-- Generated from the TSDoc of @monitor/constructs by `npm run docs`; test/docs.test.ts fails when it is stale. -->',
    '',
    'Every construct and every prop, as the package declares them: type, default and description.',
    'A construct is `new X(logicalId, props, options?)`: the props say what the resource is, the',
    '[options](#options) how monitor manages it.',
    'A guide to writing projects and construct libraries is in [constructs.md](constructs.md).',
    '',
    '## Constructs',
    '',
  ];
  for (const { name, declaration } of classes.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!Node.isClassDeclaration(declaration)) continue;
    const { description } = docOf(declaration);
    const creator = declaration.getConstructors()[0];
    const parameters = creator?.getParameters().map((p) => {
      const text = p.getTypeNode()?.getText() ?? p.getType().getText();
      return `${p.getName()}${p.isOptional() ? '?' : ''}: ${expandLocalAlias(declaration, text)}`;
    });
    out.push(`### ${name}`, '');
    if (description !== '') out.push(description, '');
    if (parameters !== undefined)
      out.push('```ts signature', `new ${name}(${parameters.join(', ')})`, '```', '');
    const statics = declaration
      .getStaticMethods()
      .map((m) => ({ m, doc: docOf(m) }))
      .filter(({ m }) => m.getScope() !== 'private' && m.getScope() !== 'protected');
    for (const { m, doc } of statics) {
      out.push(
        `- \`${name}.${m.getName()}(${m
          .getParameters()
          .map((p) => p.getName())
          .join(', ')})\`${doc.description === '' ? '' : `: ${doc.description}`}`,
      );
    }
    if (statics.length > 0) out.push('');
  }
  out.push('## Functions', '');
  for (const { name, declaration } of exported.filter(({ name }) => USER_FUNCTIONS.includes(name))) {
    if (!Node.isFunctionDeclaration(declaration)) continue;
    const { description } = docOf(declaration);
    const signature = declaration
      .getText()
      .replace(/^export declare function /, '')
      .replace(/;$/, '');
    out.push(`### ${name}`, '', '```ts signature', signature.replace(/\s+/g, ' '), '```', '');
    if (description !== '') out.push(description, '');
  }
  if (options !== undefined && Node.isInterfaceDeclaration(options)) {
    out.push('## Options', '', ...interfaceSection('ConstructOptions', options, 'option'));
  }
  out.push('## Props', '');
  for (const { name, declaration } of interfaces.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!Node.isInterfaceDeclaration(declaration)) continue;
    out.push(...interfaceSection(name, declaration, 'prop'));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** An interface's heading, description and a row for each of its members (`prop` or `option`). */
function interfaceSection(name: string, declaration: InterfaceDeclaration, member: string): string[] {
  const { description } = docOf(declaration);
  const out = [`### ${name}`, ''];
  if (description !== '') out.push(description, '');
  const extended = declaration.getExtends().map((e) => `\`${e.getText()}\``);
  if (extended.length > 0) out.push(`Also takes every ${member} of ${extended.join(', ')}.`, '');
  out.push(`| ${member} | type | default | description |`, '| --- | --- | --- | --- |');
  for (const property of declaration.getProperties()) out.push(...propertyRows(property));
  out.push('');
  return out;
}
