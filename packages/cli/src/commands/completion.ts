import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { UsageError } from '../options.js';
import type { RunContext } from '../output.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface CompletionArgs {
  shell?: Shell | undefined;
}

const INSTALL: Record<Shell, string> = {
  bash: 'monitor completion bash >> ~/.bashrc',
  zsh: 'monitor completion zsh >> ~/.zshrc   (after compinit)',
  fish: 'monitor completion fish > ~/.config/fish/conf.d/monitor.fish',
};

export const builder = (y: Argv) =>
  y
    .positional('shell', {
      choices: SHELLS,
      describe: 'The shell to complete in (default: the one $SHELL names)',
    })
    .example('$0 completion bash >> ~/.bashrc', 'complete commands, verbs and options in bash')
    .example('npx monitor completion zsh >> ~/.zshrc', 'from a project that installed monitor locally')
    .epilogue(
      [
        'Install it once, then open a new shell:',
        ...SHELLS.map((shell) => `  ${INSTALL[shell]}`),
        'The script asks the monitor of the project you are in (the nearest node_modules/.bin/monitor), else the one on PATH, else the one that wrote it: a local install (npm install, npx monitor) completes too, and so does `npx monitor <TAB>`.',
      ].join('\n'),
    );

/** The shell `$SHELL` names, when it is one we complete in. */
function shellOf(path: string | undefined): Shell | undefined {
  const name = basename(path ?? '');
  return SHELLS.find((shell) => shell === name);
}

/** `monitor completion [shell]`: a completion script for bash, zsh or fish, on stdout. */
export async function run(args: CompletionArgs, { io }: RunContext): Promise<ExitCode> {
  const shell = args.shell ?? shellOf(io.env.SHELL);
  if (shell === undefined) {
    throw new UsageError(
      `which shell? $SHELL is ${io.env.SHELL === undefined ? 'not set' : `"${io.env.SHELL}"`}`,
      'name it: monitor completion bash, monitor completion zsh or monitor completion fish',
    );
  }
  io.stdout(completionScript(shell, thisMonitor()));
  return EXIT.ok;
}

/** The command that runs this monitor from anywhere: node and the package's bin, absolute. */
function thisMonitor(): string[] {
  const packageRoot = dirname(createRequire(import.meta.url).resolve('@monitor/cli/package.json'));
  return [process.execPath, join(packageRoot, 'bin', 'monitor.js')];
}

/** A word for a POSIX shell or fish: single-quoted, with single quotes (and for fish, backslashes) escaped. */
function quote(word: string, shell: Shell): string {
  if (shell === 'fish') return `'${word.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script for `shell`. Each completion asks monitor itself (`--get-yargs-completions`), so it
 * knows every command, verb and option of the version the project uses: the nearest
 * node_modules/.bin/monitor from the working directory up, else `monitor` on PATH, else
 * `fallback` (the monitor that wrote the script). `SHELL` tells yargs how to format descriptions.
 */
export function completionScript(shell: Shell, fallback: string[]): string {
  const fallbackWords = fallback.map((w) => quote(w, shell)).join(' ');
  const header = [
    '###-begin-monitor-completions-###',
    `# monitor completion for ${shell}: commands, verbs and options, for \`monitor\` and \`npx monitor\`.`,
    `# Install: ${INSTALL[shell]}`,
    '# (a local install: npx monitor completion … the same way). It runs the monitor of the project',
    '# you are in (the nearest node_modules/.bin/monitor), else monitor on PATH, else:',
    `# ${fallback.join(' ')}`,
  ].join('\n');
  const footer = '###-end-monitor-completions-###\n';
  switch (shell) {
    case 'bash':
      return `${header}
_monitor_command() {
  local dir=$PWD
  while [[ -n $dir ]]; do
    if [[ -x $dir/node_modules/.bin/monitor ]]; then
      _monitor_cmd=("$dir/node_modules/.bin/monitor")
      return
    fi
    dir=\${dir%/*}
  done
  if type -P monitor >/dev/null; then
    _monitor_cmd=(monitor)
  else
    _monitor_cmd=(${fallbackWords})
  fi
}
# $1: where the word monitor is in COMP_WORDS (0, or 1 after npx).
_monitor_complete() {
  local -a _monitor_cmd words
  _monitor_command
  words=(monitor "\${COMP_WORDS[@]:$1+1:COMP_CWORD-$1}")
  local IFS=$'\\n'
  COMPREPLY=($(compgen -W "$(SHELL=bash "\${_monitor_cmd[@]}" --get-yargs-completions "\${words[@]}" 2>/dev/null)" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
_monitor_completions() { _monitor_complete 0; }
# npx completes as before for anything but monitor: the completion it had is kept and asked.
if [[ -z \${_monitor_npx_previous+set} ]]; then
  _monitor_npx_previous=$(complete -p npx 2>/dev/null | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')
  [[ $_monitor_npx_previous == _monitor_npx_completions ]] && _monitor_npx_previous=
fi
_monitor_npx_completions() {
  if [[ $COMP_CWORD -ge 2 && \${COMP_WORDS[1]} == monitor ]]; then
    _monitor_complete 1
  elif [[ -n $_monitor_npx_previous ]]; then
    "$_monitor_npx_previous" "$@"
  fi
}
complete -o bashdefault -o default -F _monitor_completions monitor
complete -o bashdefault -o default -F _monitor_npx_completions npx
${footer}`;
    case 'zsh':
      return `#compdef monitor npx
${header}
_monitor_command() {
  local dir=$PWD
  while [[ -n $dir ]]; do
    if [[ -x $dir/node_modules/.bin/monitor ]]; then
      reply=("$dir/node_modules/.bin/monitor")
      return
    fi
    dir=\${dir%/*}
  done
  if (( $+commands[monitor] )); then
    reply=(monitor)
  else
    reply=(${fallbackWords})
  fi
}
_monitor() {
  local -a reply completions
  local first=1
  if [[ $service == npx ]]; then
    if [[ $CURRENT -lt 3 || $words[2] != monitor ]]; then
      # npx completes as before for anything but monitor: the completion it had is kept and asked.
      if [[ -n $_monitor_npx_previous ]]; then
        $_monitor_npx_previous "$@"
      else
        _default
      fi
      return
    fi
    first=2
  fi
  _monitor_command
  completions=(\${(f)"$(SHELL=zsh "\${reply[@]}" --get-yargs-completions monitor "\${(@)words[first+1,CURRENT]}" 2>/dev/null)"})
  if (( \${#completions} )); then
    _describe 'monitor' completions
  else
    _default
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _monitor "$@"
else
  if [[ -z \${_monitor_npx_previous+set} ]]; then
    _monitor_npx_previous=\${_comps[npx]:-}
    [[ $_monitor_npx_previous == _monitor ]] && _monitor_npx_previous=
  fi
  compdef _monitor monitor npx
fi
${footer}`;
    case 'fish':
      return `${header}
function __monitor_command
    set -l dir $PWD
    while test -n "$dir"
        if test -x "$dir/node_modules/.bin/monitor"
            echo "$dir/node_modules/.bin/monitor"
            return
        end
        set dir (string replace -r '/[^/]*$' '' -- $dir)
    end
    if command -sq monitor
        echo monitor
    else
        printf '%s\\n' ${fallbackWords}
    end
end
function __monitor_complete
    set -l words (commandline -opc) (commandline -ct)
    if test "$words[1]" = npx
        set -e words[1]
    end
    set -l cmd (__monitor_command)
    SHELL=fish $cmd --get-yargs-completions monitor $words[2..-1] 2>/dev/null
end
function __monitor_after_npx
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = monitor
end
complete -c monitor -f -a '(__monitor_complete)'
complete -c npx -n __monitor_after_npx -f -a '(__monitor_complete)'
${footer}`;
  }
}
