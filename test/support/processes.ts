import { readdirSync, readFileSync } from 'node:fs';

/** The process table as Linux shows it in /proc: what the tests' clean-up and its check read. */

export interface ProcessEntry {
  pid: number;
  ppid: number;
  state: string;
}

/** The process table from /proc (Linux); empty where there is none. */
export function processTable(): ProcessEntry[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const table: ProcessEntry[] = [];
  for (const entry of entries) {
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({ pid: Number(entry), ppid: Number(ppid), state });
    } catch {
      // It ended while the table was read.
    }
  }
  return table;
}

/** Every process under `pid`, children first found first. */
export function descendantsOf(pid: number, table = processTable()): number[] {
  const found: number[] = [];
  const parents = [pid];
  while (parents.length > 0) {
    const parent = parents.shift();
    for (const p of table) {
      if (p.ppid === parent && !found.includes(p.pid)) {
        found.push(p.pid);
        parents.push(p.pid);
      }
    }
  }
  return found;
}

/**
 * SIGKILL to `pid` and to every process under it (a `bash -c` or `npm` leaves its own children
 * behind otherwise). The tree is read first: once a process is gone, its children are re-parented.
 */
export function killTree(pid: number): void {
  for (const p of [...descendantsOf(pid), pid]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** A process's command line, as `ps` shows it; empty once it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}
