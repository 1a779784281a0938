import { EXIT } from './exit-codes.js';
import type { Io } from './io.js';
import { commandPaths, main } from './main.js';

/** What `monitor <words> --help` prints, at a fixed width, without colour. */
async function helpOf(words: string[]): Promise<string> {
  let text = '';
  const io: Io = {
    stdout: (t) => {
      text += t;
    },
    stderr: () => {},
    color: false,
    interactive: false,
    cwd: process.cwd(),
    env: {},
    columns: 100,
  };
  const code = await main([...words, '--help'], io);
  if (code !== EXIT.ok) throw new Error(`monitor ${words.join(' ')} --help exited ${code}`);
  return text.trimEnd();
}

/**
 * The CLI reference: `monitor --help`, then the help of every command and verb, each under its
 * own heading. Generated from the yargs definitions, so it cannot say anything the CLI does not.
 */
export async function cliReference(): Promise<string> {
  const sections = [
    '# CLI reference\n',
    '<!-- Generated from the yargs definitions by `npm run docs`; test/docs.test.ts fails when it is stale. -->\n',
    'Every command, as `monitor <command> --help` prints it. Exit codes, the `--json` envelope and the',
    'state are described in [deploy.md](deploy.md); the operational commands in',
    '[operations.md](operations.md); CI in [ci.md](ci.md).\n',
    '## monitor\n',
    `\`\`\`text\n${await helpOf([])}\n\`\`\`\n`,
  ];
  for (const path of await commandPaths()) {
    sections.push(`## monitor ${path.join(' ')}\n`, `\`\`\`text\n${await helpOf(path)}\n\`\`\`\n`);
  }
  return `${sections.join('\n')}`;
}
