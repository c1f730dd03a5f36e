import { flagsOf, pathKey, walk, type CommandNode, type ValueSource } from './tree.js';

/**
 * The fish completion script: `complete` lines generated from the command tree, each guarded by
 * a condition on where the command line stands (which command, how many arguments so far).
 * One function walks the words before the cursor, following subcommands and aliases and
 * skipping option values, and remembers the answer for that command line. Only profile names
 * are asked for at completion time.
 */
export function fishScript(tree: CommandNode): string {
  const nodes = walk(tree);
  const out: string[] = [
    '# fish completion for mon',
    '# Generated from the command tree by `mon completion fish` (npm run generate): do not edit.',
    '# Install: mon completion fish > ~/.config/fish/completions/mon.fish',
    '',
    '# The canonical path of the command that word $argv[2] names below the command at path $argv[1].',
    'function __mon_command',
    '    switch "$argv[1]|$argv[2]"',
    ...nodes.flatMap(commandCases),
    '    end',
    'end',
    '',
    '# What option $argv[2] of the command at path $argv[1] (not its ancestors) takes: v (a value) or o (an optional value).',
    'function __mon_option',
    '    switch "$argv[1]|$argv[2]"',
    ...optionCases(nodes),
    '    end',
    'end',
    '',
    FISH_DRIVER,
    '',
    'complete -c mon -f',
    ...nodes.flatMap((node) => [...optionLines(node), ...subcommandLines(node), ...argumentLines(node, nodes)]),
  ];
  return `${out.join('\n')}\n`;
}

/** __mon_command: each subcommand of `node`, by its name and its aliases. */
function commandCases(node: CommandNode): string[] {
  return node.commands.flatMap((sub) => [
    `        case ${[sub.name, ...sub.aliases].map((word) => quote(`${pathKey(node)}|${word}`)).join(' ')}`,
    `            echo ${quote(pathKey(sub))}`,
  ]);
}

/** __mon_option: every option that takes a value (v), then every one that may take one (o). */
function optionCases(nodes: readonly CommandNode[]): string[] {
  return (['required', 'optional'] as const).flatMap((take) => {
    const patterns = nodes.flatMap((node) =>
      node.options
        .filter((option) => option.value === take)
        .flatMap((option) => flagsOf(option).map((flag) => quote(`${pathKey(node)}|${flag}`))),
    );
    return patterns.length
      ? [`        case ${patterns.join(' \\\n            ')}`, `            echo ${take === 'required' ? 'v' : 'o'}`]
      : [];
  });
}

/** A `complete` line for each option of `node`, offered once the command line is at it. */
function optionLines(node: CommandNode): string[] {
  const here = pathKey(node);
  return node.options.map((option) => {
    const words = [
      'complete -c mon',
      ...(node.path.length ? ['-n', quote(`__mon_in ${dq(here)}`)] : []),
      ...(option.short ? ['-s', quote(option.short.slice(1))] : []),
      ...(option.long ? ['-l', quote(option.long.slice(2))] : []),
    ];
    if (option.value === 'required') words.push(...valueWords(option.source, []));
    words.push('-d', quote(option.description));
    return words.join(' ');
  });
}

/** `complete` lines for the subcommands of `node`, then for their aliases when no name fits. */
function subcommandLines(node: CommandNode): string[] {
  const here = pathKey(node);
  const names = node.commands.map((sub) => sub.name);
  return [
    ...node.commands.map(
      (sub) => `complete -c mon -n ${quote(`__mon_at ${dq(here)}`)} -a ${quote(sub.name)} -d ${quote(sub.summary)}`,
    ),
    ...node.commands.flatMap((sub) =>
      sub.aliases.map(
        (alias) =>
          `complete -c mon -n ${quote(`__mon_alias ${dq(here)} ${dq(names.join(' '))}`)} -a ${quote(alias)} -d ${quote(`alias of ${sub.name}`)}`,
      ),
    ),
  ];
}

/** `complete` lines for the arguments of `node` that have values to offer. */
function argumentLines(node: CommandNode, nodes: readonly CommandNode[]): string[] {
  const here = pathKey(node);
  return node.args.flatMap((arg, index) => {
    const parentNames = node.path.length
      ? (nodes
          .find((candidate) => pathKey(candidate) === node.path.slice(0, -1).join(' '))
          ?.commands.map((sub) => sub.name) ?? [])
      : [];
    const value = valueWords(arg.source, parentNames);
    if (value.length === 1) return [];
    return [
      `complete -c mon -n ${quote(`__mon_arg ${dq(here)} ${index + 1}${arg.variadic ? ' +' : ''}`)} ${value.slice(1).join(' ')}`,
    ];
  });
}

/** `complete` words for a value: -x (a value, no files) or -r -F (a file), with -a candidates. */
function valueWords(source: ValueSource, commands: readonly string[]): string[] {
  switch (source.type) {
    case 'choices':
      return ['-x', '-a', quote(source.values.map(escapeWord).join(' '))];
    case 'profiles':
      return ['-x', '-a', quote('(__mon_profiles)')];
    case 'profile-list':
      return ['-x', '-a', quote('(__fish_complete_list , __mon_profiles)')];
    case 'files':
      return ['-r', '-F'];
    case 'names':
      return ['-x', '-a', quote(`(__mon_names ${source.kind})`)];
    case 'commands':
      return ['-x', '-a', quote([...commands, ...source.topics].map(escapeWord).join(' '))];
    default:
      return ['-x'];
  }
}

/** One word of a `-a` list, which fish expands like a command line. */
function escapeWord(text: string): string {
  return text.replace(/[^\w.,:@%+=/-]/g, '\\$&');
}

/** A command path or list of names (letters, digits, '-', '_' and spaces) in double quotes, inside a condition. */
function dq(text: string): string {
  return `"${text}"`;
}

/** A fish word in single quotes. */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

const FISH_DRIVER = `# Sets __mon_path (the command reached) and __mon_nargs (its arguments so far) from the words
# before the cursor; remembered for the command line, since every condition below asks.
function __mon_state
    set -l tokens (commandline -opc)
    set -l key (string join \\n -- $tokens)
    test "$key" = "$__mon_state_key"; and set -q __mon_path; and return
    set -g __mon_state_key $key
    set -l path ''
    set -l nargs 0
    set -l i 2
    while test $i -le (count $tokens)
        set -l word $tokens[$i]
        switch $word
            case '--'
                set nargs (math $nargs + 1)
            case '-?*'
                set -l name (string replace -r '=.*' '' -- $word)
                set -l p $path
                set -l take ''
                while true
                    set take (__mon_option "$p" $name)
                    if test -n "$take" -o -z "$p"
                        break
                    end
                    set p (string replace -r ' ?[^ ]+$' '' -- $p)
                end
                if not string match -q -- '*=*' $word
                    set -l next $tokens[(math $i + 1)]
                    if test "$take" = v; or begin; test "$take" = o; and not string match -q -- '-*' "$next"; end
                        set i (math $i + 1)
                    end
                end
            case '*'
                set -l next (__mon_command "$path" $word)
                if test -n "$next" -a $nargs -eq 0
                    set path $next
                else
                    set nargs (math $nargs + 1)
                end
        end
        set i (math $i + 1)
    end
    set -g __mon_path $path
    set -g __mon_nargs $nargs
end

# True at the command at path $argv[1] or below it (where its options are recognised).
function __mon_in
    __mon_state
    test "$__mon_path" = "$argv[1]"; or string match -q -- "$argv[1] *" "$__mon_path"
end

# True where a subcommand of the command at path $argv[1] may be typed.
function __mon_at
    __mon_state
    test "$__mon_path" = "$argv[1]" -a "$__mon_nargs" -eq 0
end

# True where argument number $argv[2] of the command at path $argv[1] is typed ("+": or later).
function __mon_arg
    __mon_state
    test "$__mon_path" = "$argv[1]"; or return 1
    if test "$argv[3]" = +
        test "$__mon_nargs" -ge (math $argv[2] - 1)
    else
        test "$__mon_nargs" -eq (math $argv[2] - 1)
    end
end

# True where a subcommand is typed and what is typed fits none of the names $argv[2]: then aliases.
function __mon_alias
    __mon_at $argv[1]; or return 1
    set -l token (commandline -ct)
    test -n "$token"; or return 1
    for name in (string split ' ' -- $argv[2])
        string match -q -- "$token*" $name; and return 1
    end
    return 0
end

function __mon_profiles
    command mon __complete profiles 2>/dev/null
end

# The options of the line before the cursor that name the account (-p, --profile, --base-url,
# --sandbox), one a line: names are completed from that account's cache.
function __mon_account
    set -l words (commandline -opc)
    set -l i 2
    while test $i -le (count $words)
        switch $words[$i]
            case -p --profile --base-url
                if test $i -lt (count $words)
                    printf '%s\n' $words[$i] $words[(math $i + 1)]
                end
                set i (math $i + 1)
            case '--profile=*' '--base-url=*' --sandbox
                printf '%s\n' $words[$i]
            case --
                break
        end
        set i (math $i + 1)
    end
end

# The account's names of one kind, one a line, from the live cache of the account on the line.
function __mon_names
    command mon (__mon_account) __complete $argv[1] 2>/dev/null
end`;
