import { flagsOf, pathKey, walk, type CommandNode, type OptionNode, type ValueSource } from './tree.js';

/**
 * The bash completion script: lookup tables generated from the command tree, and one function
 * that walks the words before the cursor (following subcommands and aliases, skipping option
 * values) and offers what fits where the cursor is. It needs no bash-completion helpers, so it
 * also works when sourced from ~/.bashrc. Only profile names are asked for at completion time.
 */
export function bashScript(tree: CommandNode): string {
  const nodes = walk(tree);
  const out: string[] = [
    '# bash completion for mon                                  -*- shell-script -*-',
    '# Generated from the command tree by `mon completion bash` (npm run generate): do not edit.',
    '# Install: mon completion bash > ~/.local/share/bash-completion/completions/mon',
    '',
    ...caseFunction(
      ['# The canonical path of the command that word $2 names below the command at path $1, in REPLY.'],
      '_mon_command',
      '"$1|$2"',
      nodes.flatMap(commandCases),
    ),
    ...caseFunction(
      [
        '# What option $2 of the command at path $1 (not its ancestors) takes, in REPLY:',
        '# "v" (a value) or "o" (an optional value), then what to offer for it; empty for a flag.',
      ],
      '_mon_option',
      '"$1|$2"',
      nodes.flatMap(optionCases),
    ),
    ...caseFunction(
      ['# The options of the command at path $1 (not its ancestors), in REPLY.'],
      '_mon_flags',
      '"$1"',
      nodes.flatMap(flagsCases),
    ),
    ...caseFunction(
      ['# The subcommands of the command at path $1, in REPLY; their aliases in _mon_aliases.'],
      '_mon_commands',
      '"$1"',
      nodes.flatMap(subcommandsCases),
      'REPLY=; _mon_aliases=',
    ),
    ...caseFunction(
      ['# What to offer for argument number $2 of the command at path $1, in REPLY.'],
      '_mon_argument',
      '"$1|$2"',
      nodes.flatMap(argumentCases),
    ),
    BASH_DRIVER,
  ];
  return `${out.join('\n')}\n`;
}

/** A lookup table as a shell function: `case` over `subject`, `otherwise` when nothing matches. */
function caseFunction(
  comment: readonly string[],
  name: string,
  subject: string,
  cases: readonly string[],
  otherwise = 'REPLY=',
): string[] {
  return [...comment, `${name}() {`, `  case ${subject} in`, ...cases, `    *) ${otherwise} ;;`, '  esac', '}', ''];
}

/** _mon_command: each subcommand of `node`, by its name and its aliases. */
function commandCases(node: CommandNode): string[] {
  return node.commands.map((sub) => {
    const patterns = [sub.name, ...sub.aliases].map((word) => quote(`${pathKey(node)}|${word}`));
    return `    ${patterns.join('|')}) REPLY=${quote(pathKey(sub))} ;;`;
  });
}

/** _mon_option: each option of `node` that takes a value. */
function optionCases(node: CommandNode): string[] {
  return node.options
    .filter((option) => option.value !== 'none')
    .map((option) => {
      const patterns = flagsOf(option).map((flag) => quote(`${pathKey(node)}|${flag}`));
      return `    ${patterns.join('|')}) REPLY=${quote(`${option.value === 'required' ? 'v' : 'o'}${offer(option.source)}`)} ;;`;
    });
}

/** _mon_flags: the options of `node`. */
function flagsCases(node: CommandNode): string[] {
  const flags = node.options.flatMap((option: OptionNode) => flagsOf(option));
  return flags.length ? [`    ${quote(pathKey(node))}) REPLY=${quote(flags.join(' '))} ;;`] : [];
}

/** _mon_commands: the subcommands of `node` and their aliases. */
function subcommandsCases(node: CommandNode): string[] {
  if (!node.commands.length) return [];
  const aliases = node.commands.flatMap((sub) => sub.aliases);
  return [
    `    ${quote(pathKey(node))}) REPLY=${quote(node.commands.map((sub) => sub.name).join(' '))}; _mon_aliases=${quote(aliases.join(' '))} ;;`,
  ];
}

/** _mon_argument: what to offer for each argument of `node` that has something to offer. */
function argumentCases(node: CommandNode): string[] {
  return node.args.flatMap((arg, index) => {
    const what = offer(arg.source).trim();
    if (!what) return [];
    return [
      `    ${quote(`${pathKey(node)}|`)}${arg.variadic ? '*' : quote(String(index + 1))}) REPLY=${quote(what)} ;;`,
    ];
  });
}

/** What the driver offers for a value: ' word word', ' @profiles', ' @profile-list', ' @files', ' @commands topic…' or ''. */
function offer(source: ValueSource): string {
  switch (source.type) {
    case 'choices':
      return ` ${source.values.join(' ')}`;
    case 'profiles':
    case 'profile-list':
    case 'files':
      return ` @${source.type}`;
    case 'commands':
      return ` @commands${source.topics.map((topic) => ` ${topic}`).join('')}`;
    case 'names':
      return ` @names:${source.kind}`;
    default:
      return '';
  }
}

/** A bash word in single quotes. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const BASH_DRIVER = `# Finds option $2 at path $1 or on one of its ancestors (REPLY as _mon_option).
_mon_find_option() {
  local path=$1
  while :; do
    _mon_option "$path" "$2"
    [[ -n $REPLY || -z $path ]] && return
    [[ $path == *' '* ]] && path=\${path% *} || path=
  done
}

# The options of the line before the cursor that name the account (-p, --profile, --base-url,
# --sandbox), in the array _mon_acct: names are completed from that account's cache. Read from
# COMP_LINE, where a URL is one word (COMP_WORDS splits it at ':').
_mon_account() {
  local -a line
  local -i j
  local v
  _mon_acct=()
  read -ra line <<< "\${COMP_LINE:0:COMP_POINT}"
  for (( j = 1; j < \${#line[@]}; j++ )); do
    v=\${line[j]}
    case $v in
      -p|--profile|--base-url)
        if (( j + 1 < \${#line[@]} )); then j+=1; _mon_acct+=("$v" "\${line[j]}"); fi ;;
      --profile=*|--base-url=*|--sandbox) _mon_acct+=("$v") ;;
      --) break ;;
    esac
  done
  # A value typed in quotes (-p 'south'): the quotes are the shell's, not the name's.
  _mon_acct=("\${_mon_acct[@]//[\\'\\"]/}")
}

# Offers the words of $1 ("word word", "@profiles", "@profile-list", "@files", "@names:<kind>", "@commands topic…") that start with $cur.
_mon_offer() {
  local IFS=$' \\t\\n' parent
  case $1 in
    @profiles) mapfile -t COMPREPLY < <(compgen -W "$(command mon __complete profiles 2>/dev/null)" -- "$cur") ;;
    @profile-list)
      # The names after the last comma; the ones before it stay as typed.
      [[ $cur == *,* ]] && parent=\${cur%,*}, || parent=''
      compopt -o nospace 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -P "$parent" -W "$(command mon __complete profiles 2>/dev/null)" -- "\${cur##*,}") ;;
    # One name a line, spaces kept: readline quotes them (-o filenames).
    @files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    @names:*)
      # The account's names, one a line (spaces and quotes kept): those that start with what is
      # typed. After a quote the user opened, quoted for that quote (readline closes it): in
      # single quotes a ' becomes '\\'', in double quotes \\ $ \` and " take a backslash.
      # Else quoted for the shell by printf -v, a builtin: no process for each of 100,000 names.
      local typed=$cur name quoted open='' sq="'\\''"
      [[ $typed == [\\"\\']* ]] && open=\${typed:0:1} && typed=\${typed:1}
      _mon_account
      COMPREPLY=()
      while IFS= read -r name; do
        [[ $name == "$typed"* ]] || continue
        case $open in
          \\') quoted=\${name//\\'/$sq} ;;
          \\") quoted=\${name//\\\\/\\\\\\\\}; quoted=\${quoted//\\$/\\\\\\$}; quoted=\${quoted//\\\`/\\\\\\\`}; quoted=\${quoted//\\"/\\\\\\"} ;;
          *) printf -v quoted '%q' "$name" ;;
        esac
        COMPREPLY+=("$quoted")
      done < <(command mon "\${_mon_acct[@]}" __complete "\${1#@names:}" 2>/dev/null) ;;
    @commands*)
      # The commands of the parent, and the help topics that follow the word.
      [[ $path == *' '* ]] && parent=\${path% *} || parent=''
      _mon_commands "$parent"
      mapfile -t COMPREPLY < <(compgen -W "$REPLY \${1#@commands}" -- "$cur") ;;
    *) mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur") ;;
  esac
}

_mon() {
  local cur=\${COMP_WORDS[COMP_CWORD]} path='' word take opt='' prefix='' flags='' p REPLY _mon_aliases
  local -a _mon_acct
  local -i i=1 nargs=0
  COMPREPLY=()
  # Walk the words before the cursor: subcommands move down the tree, option values are skipped.
  while (( i < COMP_CWORD )); do
    word=\${COMP_WORDS[i]}
    case $word in
      --) nargs+=1 ;;
      -?*)
        _mon_find_option "$path" "\${word%%=*}"
        take=\${REPLY%% *}
        if [[ $word != *=* && ( $take == v || ( $take == o && \${COMP_WORDS[i+1]} != -* ) ) ]]; then
          # "--opt value", or "--opt" "=" "value" when COMP_WORDBREAKS splits at "="
          [[ \${COMP_WORDS[i+1]} == = ]] && i+=2 || i+=1
        fi ;;
      *)
        _mon_command "$path" "$word"
        if [[ -n $REPLY ]] && (( nargs == 0 )); then path=$REPLY; else nargs+=1; fi ;;
    esac
    i+=1
  done
  (( i > COMP_CWORD )) && opt=\${COMP_WORDS[COMP_CWORD-1]}
  if [[ $cur == = && \${COMP_WORDS[COMP_CWORD-1]} == --* ]]; then
    opt=\${COMP_WORDS[COMP_CWORD-1]}; cur=
  elif [[ \${COMP_WORDS[COMP_CWORD-1]} == = ]] && (( COMP_CWORD > 1 )); then
    opt=\${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $cur == --*=* ]]; then
    # "--opt=value" in one word (COMP_WORDBREAKS without "="): offer whole words.
    opt=\${cur%%=*}; prefix=$opt=; cur=\${cur#*=}
  fi
  # The value of an option.
  if [[ -n $opt ]]; then
    _mon_find_option "$path" "$opt"
    if [[ $REPLY == v* ]]; then
      [[ $REPLY == 'v '* ]] && _mon_offer "\${REPLY#v }"
      [[ -n $prefix ]] && COMPREPLY=("\${COMPREPLY[@]/#/$prefix}")
      return 0
    fi
  fi
  # An option: those of the command and of its ancestors.
  if [[ $cur == -* ]]; then
    p=$path
    while :; do
      _mon_flags "$p"; flags+=" $REPLY"
      [[ -z $p ]] && break
      [[ $p == *' '* ]] && p=\${p% *} || p=
    done
    _mon_offer "$flags"
    return 0
  fi
  # A subcommand (its aliases only when no name fits), else an argument.
  if (( nargs == 0 )); then
    _mon_commands "$path"
    if [[ -n $REPLY ]]; then
      _mon_offer "$REPLY"
      (( \${#COMPREPLY[@]} )) || _mon_offer "$_mon_aliases"
      return 0
    fi
  fi
  _mon_argument "$path" $((nargs + 1))
  [[ -n $REPLY ]] && _mon_offer "$REPLY"
  return 0
}

complete -F _mon mon`;
