import { walk, type ArgNode, type CommandNode, type OptionNode, type ValueSource } from './tree.js';

/**
 * The zsh completion function `_mon`: one `_arguments` call per command, generated from the
 * command tree, with subcommands dispatched the usual way (`*:: :->command`). Global options
 * are repeated at every level because commander accepts them after subcommands too. Only
 * profile names are asked for at completion time.
 */
export function zshScript(tree: CommandNode): string {
  const nodes = walk(tree);
  const out: string[] = [
    ...PRELUDE,
    ...nodes.flatMap(commandsFunction),
    ...nodes.flatMap((node) => helpWordsFunctions(tree, node)),
    // The root's options are recognised at every level: one array, used by every function.
    `typeset -ga _mon_globals`,
    `_mon_globals=(\n  ${tree.options.flatMap(optionSpecs).join('\n  ')}\n)`,
    '',
    ...nodes.flatMap((node) => commandFunction(tree, node)),
    // Autoloaded from $fpath the file is _mon's body: define, then run. Sourced, it registers.
    'if [[ $funcstack[1] == _mon ]]; then',
    '  _mon "$@"',
    'else',
    '  compdef _mon mon',
    'fi',
  ];
  return `${out.join('\n')}\n`;
}

/** The script's head: what it is, and the two functions that ask mon for names as the user types. */
const PRELUDE: readonly string[] = [
  '#compdef mon',
  '# zsh completion for mon',
  '# Generated from the command tree by `mon completion zsh` (npm run generate): do not edit.',
  '# Install: mon completion zsh > "${fpath[1]}/_mon" (any directory on $fpath), then start a new shell.',
  '',
  '_mon_profiles() {',
  '  local -a profiles',
  '  profiles=(${(f)"$(_call_program profiles mon __complete profiles 2>/dev/null)"})',
  "  _wanted profiles expl 'profile' compadd -a profiles",
  '}',
  '',
  "# The account's names of one kind (groups, computers, plugins, notes, expirations), one a line, from the live cache.",
  '# The kind comes last: _arguments puts its own compadd options before it.',
  '# From the live cache of the account the line names (-p, --profile, --base-url, --sandbox),',
  "# read from the words before the cursor as typed ($words holds only the subcommand's).",
  '_mon_names() {',
  '  local kind=${@[-1]} i',
  '  local -a mon_names line acct',
  '  line=(${(z)LBUFFER})',
  '  local -i n=$#line',
  '  [[ $LBUFFER == *[[:space:]] ]] || n=n-1',
  '  for (( i = 2; i <= n; i++ )); do',
  '    case $line[i] in',
  '      (-p|--profile|--base-url) acct+=($line[i] ${(Q)line[i+1]}); (( i++ )) ;;',
  '      (--profile=*|--base-url=*|--sandbox) acct+=(${(Q)line[i]}) ;;',
  '      (--) break ;;',
  '    esac',
  '  done',
  '  mon_names=(${(f)"$(_call_program $kind mon ${(q)acct} __complete $kind 2>/dev/null)"})',
  '  _wanted $kind expl $kind compadd -a mon_names',
  '}',
  '',
];

/** `_mon__computers_cmds`: the subcommands of a command that has some, and their aliases. */
function commandsFunction(node: CommandNode): string[] {
  if (!node.commands.length) return [];
  const commands = node.commands.map((sub) => describeItem(sub.name, sub.summary));
  const aliases = node.commands.flatMap((sub) =>
    sub.aliases.map((alias) => describeItem(alias, `alias of ${sub.name}`)),
  );
  return [
    `${fn(node)}_cmds() {`,
    '  local -a commands aliases',
    `  commands=(${commands.join(' ')})`,
    `  aliases=(${aliases.join(' ')})`,
    // Aliases only when no name fits what was typed, so that `ls` does not crowd out `list`.
    `  _describe -t commands ${quote(`${['mon', ...node.path].join(' ')} command`)} commands || _describe -t aliases 'alias' aliases`,
    '}',
    '',
  ];
}

/** `mon help <Tab>`: the commands a help argument names, and the help topics. */
function helpWordsFunctions(tree: CommandNode, node: CommandNode): string[] {
  return node.args.flatMap((arg) => {
    if (arg.source.type !== 'commands' || !arg.source.topics.length) return [];
    const parent = ancestorsOf(tree, node).at(-1) ?? tree;
    return [
      `${fn(node)}_words() {`,
      `  ${fn(parent)}_cmds`,
      `  local -a topics=(${arg.source.topics.map(quote).join(' ')})`,
      "  _wanted topics expl 'help topic' compadd -a topics",
      '}',
      '',
    ];
  });
}

/** `_mon__computers__list`: one command's `_arguments`, and the dispatch to its subcommands. */
function commandFunction(tree: CommandNode, node: CommandNode): string[] {
  const own = [
    ...ancestorsOf(tree, node)
      .slice(1)
      .flatMap((ancestor) => ancestor.options),
    ...(node === tree ? [] : node.options),
  ];
  const lines = ['"${_mon_globals[@]}"', ...own.flatMap(optionSpecs)];
  if (node.commands.length) {
    lines.push(quote(`1: :${fn(node)}_cmds`), quote('*:: :->command'));
  } else {
    node.args.forEach((arg, index) => lines.push(quote(argSpec(arg, index, node, tree))));
  }
  const out = [
    `${fn(node)}() {`,
    '  local curcontext=$curcontext state state_descr line ret=1',
    '  typeset -A opt_args',
  ];
  // -A: above a subcommand, the words after it are its own (global options among them).
  out.push(`  _arguments -C -S${node.commands.length ? ` -A '-*'` : ''} \\\n    ${lines.join(' \\\n    ')} && ret=0`);
  if (node.commands.length) {
    out.push('  [[ $state == command ]] || return ret');
    out.push(`  curcontext=\${curcontext%:*:*}:${['mon', ...node.path].join('-')}-$words[1]:`);
    out.push('  case $words[1] in');
    for (const sub of node.commands) out.push(`    (${[sub.name, ...sub.aliases].join('|')}) ${fn(sub)} && ret=0 ;;`);
    out.push('  esac');
  }
  out.push('  return ret', '}', '');
  return out;
}

/** `_mon`, `_mon__computers`, `_mon__computers__list`. */
function fn(node: CommandNode): string {
  return ['_mon', ...node.path.map((name) => name.replace(/[^\w-]/g, '_'))].join('__');
}

function ancestorsOf(tree: CommandNode, node: CommandNode): CommandNode[] {
  const chain: CommandNode[] = [];
  let current = tree;
  for (const name of node.path) {
    chain.push(current);
    const next = current.commands.find((sub) => sub.name === name);
    if (!next) break;
    current = next;
  }
  return chain;
}

function optionSpecs(option: OptionNode): string[] {
  const description = `[${escapeBrackets(option.description)}]`;
  const name = option.valueName ?? 'value';
  const action =
    option.value === 'none'
      ? ''
      : `${option.value === 'optional' ? '::' : ':'}${escapeColon(name)}:${valueAction(option.source)}`;
  // One that mon takes once is offered until it, or a form of it, is on the line (mon refuses
  // it again); a repeatable one (`*`) is offered again.
  const times = option.once ? `(${option.once.join(' ')})` : '*';
  return [
    ...(option.short
      ? [quote(`${times}${option.short}${option.value === 'none' ? '' : '+'}${description}${action}`)]
      : []),
    ...(option.long
      ? [quote(`${times}${option.long}${option.value === 'none' ? '' : '='}${description}${action}`)]
      : []),
  ];
}

function argSpec(arg: ArgNode, index: number, node: CommandNode, tree: CommandNode): string {
  const position = arg.variadic ? '*' : String(index + 1);
  const parent = ancestorsOf(tree, node).at(-1) ?? tree;
  const action =
    arg.source.type === 'commands' && arg.source.topics.length ? `${fn(node)}_words` : valueAction(arg.source, parent);
  return `${position}:${arg.optional && !arg.variadic ? ':' : ''}${escapeColon(arg.name)}:${action}`;
}

/** What `_arguments` runs to offer a value; `parent` owns the commands a `help` argument names. */
function valueAction(source: ValueSource, parent?: CommandNode): string {
  switch (source.type) {
    case 'choices':
      return `(${source.values.map((value) => value.replace(/([\\\s:()'"])/g, '\\$1')).join(' ')})`;
    case 'profiles':
      return '_mon_profiles';
    case 'profile-list':
      return '_sequence _mon_profiles';
    case 'files':
      return '_files';
    case 'names':
      return `_mon_names ${source.kind}`;
    case 'commands':
      return parent ? `${fn(parent)}_cmds` : ' ';
    default:
      return ' ';
  }
}

function describeItem(name: string, description: string): string {
  return quote(`${escapeColon(name)}:${description}`);
}

function escapeColon(text: string): string {
  return text.replace(/:/g, '\\:');
}

function escapeBrackets(text: string): string {
  return text.replace(/([\\[\]])/g, '\\$1');
}

/** A zsh word in single quotes. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
