# bash completion for mon                                  -*- shell-script -*-
# Generated from the command tree by `mon completion bash` (npm run generate): do not edit.
# Install: mon completion bash > ~/.local/share/bash-completion/completions/mon

# The canonical path of the command that word $2 names below the command at path $1, in REPLY.
_mon_command() {
  case "$1|$2" in
    '|groups'|'|group') REPLY='groups' ;;
    '|computers'|'|computer') REPLY='computers' ;;
    '|expirations'|'|expiration') REPLY='expirations' ;;
    '|expiration-manufacturers'|'|manufacturers') REPLY='expiration-manufacturers' ;;
    '|expiration-products'|'|products') REPLY='expiration-products' ;;
    '|notes'|'|note') REPLY='notes' ;;
    '|plugin'|'|plugins'|'|plugin-results') REPLY='plugin' ;;
    '|users'|'|user') REPLY='users' ;;
    '|alerts') REPLY='alerts' ;;
    '|status') REPLY='status' ;;
    '|metrics') REPLY='metrics' ;;
    '|report') REPLY='report' ;;
    '|history') REPLY='history' ;;
    '|events') REPLY='events' ;;
    '|changes') REPLY='changes' ;;
    '|api') REPLY='api' ;;
    '|profile'|'|profiles') REPLY='profile' ;;
    '|sandbox') REPLY='sandbox' ;;
    '|completion') REPLY='completion' ;;
    '|help') REPLY='help' ;;
    'groups|list'|'groups|ls') REPLY='groups list' ;;
    'groups|get'|'groups|show') REPLY='groups get' ;;
    'groups|find-or-create') REPLY='groups find-or-create' ;;
    'groups|update') REPLY='groups update' ;;
    'computers|list'|'computers|ls') REPLY='computers list' ;;
    'computers|get'|'computers|show') REPLY='computers get' ;;
    'computers|update') REPLY='computers update' ;;
    'expirations|list'|'expirations|ls') REPLY='expirations list' ;;
    'expirations|get'|'expirations|show') REPLY='expirations get' ;;
    'expirations|create') REPLY='expirations create' ;;
    'expirations|update') REPLY='expirations update' ;;
    'expirations|delete'|'expirations|rm') REPLY='expirations delete' ;;
    'expiration-manufacturers|list'|'expiration-manufacturers|ls') REPLY='expiration-manufacturers list' ;;
    'expiration-manufacturers|get'|'expiration-manufacturers|show') REPLY='expiration-manufacturers get' ;;
    'expiration-manufacturers|create') REPLY='expiration-manufacturers create' ;;
    'expiration-manufacturers|update') REPLY='expiration-manufacturers update' ;;
    'expiration-manufacturers|delete'|'expiration-manufacturers|rm') REPLY='expiration-manufacturers delete' ;;
    'expiration-products|list'|'expiration-products|ls') REPLY='expiration-products list' ;;
    'expiration-products|get'|'expiration-products|show') REPLY='expiration-products get' ;;
    'expiration-products|create') REPLY='expiration-products create' ;;
    'expiration-products|update') REPLY='expiration-products update' ;;
    'expiration-products|delete'|'expiration-products|rm') REPLY='expiration-products delete' ;;
    'notes|list'|'notes|ls') REPLY='notes list' ;;
    'notes|get'|'notes|show') REPLY='notes get' ;;
    'notes|create') REPLY='notes create' ;;
    'notes|update') REPLY='notes update' ;;
    'notes|delete'|'notes|rm') REPLY='notes delete' ;;
    'plugin|list'|'plugin|ls') REPLY='plugin list' ;;
    'plugin|mute') REPLY='plugin mute' ;;
    'plugin|unmute') REPLY='plugin unmute' ;;
    'users|list'|'users|ls') REPLY='users list' ;;
    'metrics|serve') REPLY='metrics serve' ;;
    'history|list'|'history|ls') REPLY='history list' ;;
    'history|export') REPLY='history export' ;;
    'history|forget'|'history|rm') REPLY='history forget' ;;
    'events|listen') REPLY='events listen' ;;
    'changes|list'|'changes|ls') REPLY='changes list' ;;
    'changes|forget'|'changes|rm') REPLY='changes forget' ;;
    'profile|add') REPLY='profile add' ;;
    'profile|list'|'profile|ls') REPLY='profile list' ;;
    'profile|set') REPLY='profile set' ;;
    'profile|use') REPLY='profile use' ;;
    'profile|show') REPLY='profile show' ;;
    'profile|remove'|'profile|rm') REPLY='profile remove' ;;
    'profile|test') REPLY='profile test' ;;
    'sandbox|serve') REPLY='sandbox serve' ;;
    'sandbox|trigger') REPLY='sandbox trigger' ;;
    'sandbox|reset') REPLY='sandbox reset' ;;
    'completion|bash') REPLY='completion bash' ;;
    'completion|zsh') REPLY='completion zsh' ;;
    'completion|fish') REPLY='completion fish' ;;
    *) REPLY= ;;
  esac
}

# What option $2 of the command at path $1 (not its ancestors) takes, in REPLY:
# "v" (a value) or "o" (an optional value), then what to offer for it; empty for a flag.
_mon_option() {
  case "$1|$2" in
    '|-p'|'|--profile') REPLY='v @profiles' ;;
    '|--profiles') REPLY='v @profile-list' ;;
    '|--parallel') REPLY='v' ;;
    '|--base-url') REPLY='v' ;;
    '|-o'|'|--output') REPLY='v table json ndjson csv tsv openmetrics' ;;
    '|--jq') REPLY='v' ;;
    '|--fields') REPLY='v' ;;
    '|--output-file') REPLY='v @files' ;;
    '|--expand') REPLY='v' ;;
    '|--timeout') REPLY='v' ;;
    '|--retries') REPLY='v' ;;
    'groups list|--visibility') REPLY='v visible hidden' ;;
    'groups list|--page') REPLY='v' ;;
    'groups list|--per-page') REPLY='v' ;;
    'groups list|--offset') REPLY='v' ;;
    'groups list|--limit') REPLY='v' ;;
    'groups list|--changes') REPLY='v' ;;
    'groups find-or-create|--name') REPLY='v' ;;
    'groups find-or-create|--description') REPLY='v' ;;
    'groups update|--name') REPLY='v' ;;
    'groups update|--description') REPLY='v' ;;
    'groups update|--reference-email') REPLY='v' ;;
    'computers list|--status') REPLY='v visible hidden missing pending_rekey pending_removal has_muted_plugin' ;;
    'computers list|--group') REPLY='v @names:groups' ;;
    'computers list|--created-after') REPLY='v' ;;
    'computers list|--serial-number') REPLY='v' ;;
    'computers list|--asset-id') REPLY='v' ;;
    'computers list|--reference-email-computer') REPLY='v' ;;
    'computers list|--reference-email-group') REPLY='v' ;;
    'computers list|--reference-email') REPLY='v' ;;
    'computers list|--platform') REPLY='v mac linux windows' ;;
    'computers list|--order') REPLY='v last_reported_desc reported_desc created_desc' ;;
    'computers list|--page') REPLY='v' ;;
    'computers list|--per-page') REPLY='v' ;;
    'computers list|--offset') REPLY='v' ;;
    'computers list|--limit') REPLY='v' ;;
    'computers list|--changes') REPLY='v' ;;
    'computers update|--asset-id') REPLY='v' ;;
    'computers update|--custom-name') REPLY='v' ;;
    'computers update|--description') REPLY='v' ;;
    'computers update|--reference-email') REPLY='v' ;;
    'computers update|--product-description') REPLY='v' ;;
    'computers update|--estimated-manufacture-date') REPLY='v' ;;
    'computers update|--beacon-missing-threshold') REPLY='v 2 5 10 15 20 30' ;;
    'expirations list|--uid') REPLY='v' ;;
    'expirations list|--manufacturer') REPLY='v' ;;
    'expirations list|--product') REPLY='v' ;;
    'expirations list|--group') REPLY='v @names:groups' ;;
    'expirations list|--computer') REPLY='v @names:computers' ;;
    'expirations list|--license-key') REPLY='v' ;;
    'expirations list|--expires-start') REPLY='v' ;;
    'expirations list|--expires-end') REPLY='v' ;;
    'expirations list|--within') REPLY='v' ;;
    'expirations list|--order') REPLY='v soonest latest' ;;
    'expirations list|--page') REPLY='v' ;;
    'expirations list|--per-page') REPLY='v' ;;
    'expirations list|--offset') REPLY='v' ;;
    'expirations list|--limit') REPLY='v' ;;
    'expirations list|--changes') REPLY='v' ;;
    'expirations create|--license-key') REPLY='v' ;;
    'expirations create|--expires-at') REPLY='v' ;;
    'expirations create|--manufacturer') REPLY='v' ;;
    'expirations create|--product') REPLY='v' ;;
    'expirations create|--group') REPLY='v @names:groups' ;;
    'expirations create|--computer') REPLY='v @names:computers' ;;
    'expirations create|--notes') REPLY='v' ;;
    'expirations update|--license-key') REPLY='v' ;;
    'expirations update|--expires-at') REPLY='v' ;;
    'expirations update|--manufacturer') REPLY='v' ;;
    'expirations update|--product') REPLY='v' ;;
    'expirations update|--group') REPLY='v @names:groups' ;;
    'expirations update|--computer') REPLY='v @names:computers' ;;
    'expirations update|--notes') REPLY='v' ;;
    'expiration-manufacturers list|--page') REPLY='v' ;;
    'expiration-manufacturers list|--per-page') REPLY='v' ;;
    'expiration-manufacturers list|--offset') REPLY='v' ;;
    'expiration-manufacturers list|--limit') REPLY='v' ;;
    'expiration-manufacturers list|--changes') REPLY='v' ;;
    'expiration-manufacturers create|--name') REPLY='v' ;;
    'expiration-manufacturers update|--name') REPLY='v' ;;
    'expiration-products list|--page') REPLY='v' ;;
    'expiration-products list|--per-page') REPLY='v' ;;
    'expiration-products list|--offset') REPLY='v' ;;
    'expiration-products list|--limit') REPLY='v' ;;
    'expiration-products list|--changes') REPLY='v' ;;
    'expiration-products create|--name') REPLY='v' ;;
    'expiration-products update|--name') REPLY='v' ;;
    'notes list|--computer') REPLY='v @names:computers' ;;
    'notes list|--group') REPLY='v @names:groups' ;;
    'notes list|--page') REPLY='v' ;;
    'notes list|--per-page') REPLY='v' ;;
    'notes list|--offset') REPLY='v' ;;
    'notes list|--limit') REPLY='v' ;;
    'notes list|--changes') REPLY='v' ;;
    'notes create|--computer') REPLY='v @names:computers' ;;
    'notes create|--group') REPLY='v @names:groups' ;;
    'notes create|--body') REPLY='v' ;;
    'notes create|--body-file') REPLY='v @files' ;;
    'notes update|--body') REPLY='v' ;;
    'notes update|--body-file') REPLY='v @files' ;;
    'notes update|--computer') REPLY='v @names:computers' ;;
    'notes update|--group') REPLY='v @names:groups' ;;
    'plugin list|--status') REPLY='v OK Warning Alert Informational' ;;
    'plugin list|--changes') REPLY='v' ;;
    'plugin mute|--timed') REPLY='o' ;;
    'plugin mute|--ticket') REPLY='v' ;;
    'plugin mute|--ticket-url') REPLY='v' ;;
    'plugin mute|--status') REPLY='v OK Warning Alert Informational' ;;
    'plugin mute|--plugin') REPLY='v @names:plugins' ;;
    'plugin mute|--group') REPLY='v @names:groups' ;;
    'plugin mute|--computer') REPLY='v @names:computers' ;;
    'plugin mute|--ran-since') REPLY='v' ;;
    'plugin mute|--since') REPLY='v' ;;
    'plugin mute|--created-after') REPLY='v' ;;
    'plugin mute|--serial-number') REPLY='v' ;;
    'plugin mute|--asset-id') REPLY='v' ;;
    'plugin mute|--reference-email-computer') REPLY='v' ;;
    'plugin mute|--reference-email-group') REPLY='v' ;;
    'plugin mute|--reference-email') REPLY='v' ;;
    'plugin mute|--platform') REPLY='v mac linux windows' ;;
    'plugin mute|--from') REPLY='v @files' ;;
    'plugin mute|--max') REPLY='v' ;;
    'plugin unmute|--status') REPLY='v OK Warning Alert Informational' ;;
    'plugin unmute|--plugin') REPLY='v @names:plugins' ;;
    'plugin unmute|--group') REPLY='v @names:groups' ;;
    'plugin unmute|--computer') REPLY='v @names:computers' ;;
    'plugin unmute|--ran-since') REPLY='v' ;;
    'plugin unmute|--since') REPLY='v' ;;
    'plugin unmute|--created-after') REPLY='v' ;;
    'plugin unmute|--serial-number') REPLY='v' ;;
    'plugin unmute|--asset-id') REPLY='v' ;;
    'plugin unmute|--reference-email-computer') REPLY='v' ;;
    'plugin unmute|--reference-email-group') REPLY='v' ;;
    'plugin unmute|--reference-email') REPLY='v' ;;
    'plugin unmute|--platform') REPLY='v mac linux windows' ;;
    'plugin unmute|--from') REPLY='v @files' ;;
    'plugin unmute|--max') REPLY='v' ;;
    'users list|--page') REPLY='v' ;;
    'users list|--per-page') REPLY='v' ;;
    'users list|--offset') REPLY='v' ;;
    'users list|--limit') REPLY='v' ;;
    'users list|--changes') REPLY='v' ;;
    'alerts|--status') REPLY='v OK Warning Alert Informational' ;;
    'alerts|--plugin') REPLY='v @names:plugins' ;;
    'alerts|--group') REPLY='v @names:groups' ;;
    'alerts|--computer') REPLY='v @names:computers' ;;
    'alerts|--ran-since') REPLY='v' ;;
    'alerts|--since') REPLY='v' ;;
    'alerts|--created-after') REPLY='v' ;;
    'alerts|--serial-number') REPLY='v' ;;
    'alerts|--asset-id') REPLY='v' ;;
    'alerts|--reference-email-computer') REPLY='v' ;;
    'alerts|--reference-email-group') REPLY='v' ;;
    'alerts|--reference-email') REPLY='v' ;;
    'alerts|--platform') REPLY='v mac linux windows' ;;
    'alerts|--changes') REPLY='v' ;;
    'status|--group') REPLY='v @names:groups' ;;
    'status|--within') REPLY='v' ;;
    'status|--warning-alerts') REPLY='v' ;;
    'status|--critical-alerts') REPLY='v' ;;
    'status|--warning-warnings') REPLY='v' ;;
    'status|--critical-warnings') REPLY='v' ;;
    'status|--warning-missing') REPLY='v' ;;
    'status|--critical-missing') REPLY='v' ;;
    'metrics|--listen') REPLY='v' ;;
    'metrics|--refresh') REPLY='v' ;;
    'metrics|--auth-token-file') REPLY='v @files' ;;
    'metrics|--basic-auth-file') REPLY='v @files' ;;
    'metrics|--tls-cert') REPLY='v @files' ;;
    'metrics|--tls-key') REPLY='v @files' ;;
    'report|--group') REPLY='v @names:groups' ;;
    'report|--period') REPLY='v' ;;
    'report|--since') REPLY='v' ;;
    'report|--title') REPLY='v' ;;
    'report|--logo') REPLY='v @files' ;;
    'report|--footer') REPLY='v' ;;
    'report|--output-dir') REPLY='v @files' ;;
    'history export|--since') REPLY='v' ;;
    'history export|--account') REPLY='v' ;;
    'history forget|--before') REPLY='v' ;;
    'history forget|--account') REPLY='v' ;;
    'events listen|--listen') REPLY='v' ;;
    'events listen|--path') REPLY='v @files' ;;
    'events listen|--tls-cert') REPLY='v @files' ;;
    'events listen|--tls-key') REPLY='v @files' ;;
    'events listen|--severity') REPLY='v' ;;
    'events listen|--group') REPLY='v @names:groups' ;;
    'events listen|--computer') REPLY='v @names:computers' ;;
    'events listen|--plugin') REPLY='v @names:plugins' ;;
    'events listen|--forward-to') REPLY='v' ;;
    'events listen|--exec') REPLY='v' ;;
    'events listen|--exec-parallel') REPLY='v' ;;
    'events listen|--exec-timeout') REPLY='v' ;;
    'events listen|--max-events') REPLY='v' ;;
    'events listen|--for') REPLY='v' ;;
    'api|-F'|'api|--field') REPLY='v' ;;
    'profile add|--subdomain') REPLY='v' ;;
    'profile add|--domain') REPLY='v' ;;
    'profile add|--display-name') REPLY='v' ;;
    'profile set|--display-name') REPLY='v' ;;
    'sandbox|--port') REPLY='v' ;;
    'sandbox|--host') REPLY='v 127.0.0.1 localhost ::1' ;;
    'sandbox|--account') REPLY='v' ;;
    'sandbox|--computers') REPLY='v' ;;
    'sandbox|--seed') REPLY='v' ;;
    'sandbox|--rate-limit') REPLY='v' ;;
    'sandbox|--speed') REPLY='v' ;;
    'sandbox|--webhook') REPLY='v' ;;
    *) REPLY= ;;
  esac
}

# The options of the command at path $1 (not its ancestors), in REPLY.
_mon_flags() {
  case "$1" in
    '') REPLY='-V --version -p --profile --profiles --all-profiles --parallel --base-url --sandbox -o --output --json --jq --fields --output-file --no-header --expand --timeout --retries --dry-run -y --yes -q --quiet -v --verbose --no-color -h --help' ;;
    'groups list') REPLY='--visibility --page --per-page --offset --all --limit --count --changes --reset' ;;
    'groups find-or-create') REPLY='--name --description --show-contact-menu --no-show-contact-menu --build-installers' ;;
    'groups update') REPLY='--name --description --reference-email --show-contact-menu --no-show-contact-menu' ;;
    'computers list') REPLY='--status --group --created-after --serial-number --asset-id --reference-email-computer --reference-email-group --reference-email --platform --order --page --per-page --offset --all --limit --count --changes --reset' ;;
    'computers update') REPLY='--asset-id --custom-name --description --reference-email --product-description --estimated-manufacture-date --beacon-reporting --no-beacon-reporting --beacon-missing-threshold --create-ticket-on-beacon-found --no-create-ticket-on-beacon-found' ;;
    'expirations list') REPLY='--uid --manufacturer --product --group --computer --license-key --expires-start --expires-end --within --expired --order --page --per-page --offset --all --limit --count --changes --reset' ;;
    'expirations create') REPLY='--license-key --expires-at --manufacturer --product --group --computer --renewable --no-renewable --notes' ;;
    'expirations update') REPLY='--license-key --expires-at --manufacturer --product --group --computer --renewable --no-renewable --notes' ;;
    'expiration-manufacturers list') REPLY='--page --per-page --offset --all --limit --count --changes --reset' ;;
    'expiration-manufacturers create') REPLY='--name' ;;
    'expiration-manufacturers update') REPLY='--name' ;;
    'expiration-products list') REPLY='--page --per-page --offset --all --limit --count --changes --reset' ;;
    'expiration-products create') REPLY='--name' ;;
    'expiration-products update') REPLY='--name' ;;
    'notes list') REPLY='--computer --group --include-private --page --per-page --offset --all --limit --count --changes --reset' ;;
    'notes create') REPLY='--computer --group --body --body-file --private --include-in-email --include-in-report' ;;
    'notes update') REPLY='--body --body-file --computer --group --private --no-private --include-in-email --no-include-in-email --include-in-report --no-include-in-report' ;;
    'plugin list') REPLY='--status --muted --unmuted --include-hidden --all --count --changes --reset' ;;
    'plugin mute') REPLY='--timed --ticket --ignore --ticket-url --status --include-hidden --plugin --group --computer --missing --ran-since --since --created-after --serial-number --asset-id --reference-email-computer --reference-email-group --reference-email --platform --from --max' ;;
    'plugin unmute') REPLY='--status --include-hidden --plugin --group --computer --missing --ran-since --since --created-after --serial-number --asset-id --reference-email-computer --reference-email-group --reference-email --platform --from --max --timed-only' ;;
    'users list') REPLY='--page --per-page --offset --all --limit --count --changes --reset' ;;
    'alerts') REPLY='--status --muted --include-muted --include-hidden --plugin --group --computer --missing --ran-since --since --created-after --serial-number --asset-id --reference-email-computer --reference-email-group --reference-email --platform --all --count --changes --reset' ;;
    'status') REPLY='--group --within --check --warning-alerts --critical-alerts --warning-warnings --critical-warnings --warning-missing --critical-missing' ;;
    'metrics') REPLY='--listen --refresh --auth-token-file --basic-auth-file --tls-cert --tls-key --insecure' ;;
    'report') REPLY='--group --period --since --title --logo --footer --output-dir' ;;
    'history list') REPLY='--all --count' ;;
    'history export') REPLY='--since --account' ;;
    'history forget') REPLY='--before --account' ;;
    'events listen') REPLY='--listen --path --tls-cert --tls-key --insecure --severity --group --computer --plugin --include-tests --forward-to --exec --exec-parallel --exec-timeout --max-events --for' ;;
    'changes list') REPLY='--all --count' ;;
    'api') REPLY='-F --field --paginate -i --include' ;;
    'profile add') REPLY='--subdomain --domain --api-key-stdin --default --display-name' ;;
    'profile list') REPLY='--all --count' ;;
    'profile set') REPLY='--display-name' ;;
    'sandbox') REPLY='--port --host --account --computers --seed --rate-limit --tls --live --speed --webhook' ;;
    'sandbox reset') REPLY='--all' ;;
    *) REPLY= ;;
  esac
}

# The subcommands of the command at path $1, in REPLY; their aliases in _mon_aliases.
_mon_commands() {
  case "$1" in
    '') REPLY='groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help'; _mon_aliases='group computer expiration manufacturers products note plugins plugin-results user profiles' ;;
    'groups') REPLY='list get find-or-create update'; _mon_aliases='ls show' ;;
    'computers') REPLY='list get update'; _mon_aliases='ls show' ;;
    'expirations') REPLY='list get create update delete'; _mon_aliases='ls show rm' ;;
    'expiration-manufacturers') REPLY='list get create update delete'; _mon_aliases='ls show rm' ;;
    'expiration-products') REPLY='list get create update delete'; _mon_aliases='ls show rm' ;;
    'notes') REPLY='list get create update delete'; _mon_aliases='ls show rm' ;;
    'plugin') REPLY='list mute unmute'; _mon_aliases='ls' ;;
    'users') REPLY='list'; _mon_aliases='ls' ;;
    'metrics') REPLY='serve'; _mon_aliases='' ;;
    'history') REPLY='list export forget'; _mon_aliases='ls rm' ;;
    'events') REPLY='listen'; _mon_aliases='' ;;
    'changes') REPLY='list forget'; _mon_aliases='ls rm' ;;
    'profile') REPLY='add list set use show remove test'; _mon_aliases='ls rm' ;;
    'sandbox') REPLY='serve trigger reset'; _mon_aliases='' ;;
    'completion') REPLY='bash zsh fish'; _mon_aliases='' ;;
    *) REPLY=; _mon_aliases= ;;
  esac
}

# What to offer for argument number $2 of the command at path $1, in REPLY.
_mon_argument() {
  case "$1|$2" in
    'groups get|''1') REPLY='@names:groups' ;;
    'groups update|''1') REPLY='@names:groups' ;;
    'computers get|''1') REPLY='@names:computers' ;;
    'computers update|''1') REPLY='@names:computers' ;;
    'expirations get|''1') REPLY='@names:expirations' ;;
    'expirations update|''1') REPLY='@names:expirations' ;;
    'expirations delete|''1') REPLY='@names:expirations' ;;
    'notes get|''1') REPLY='@names:notes' ;;
    'notes update|''1') REPLY='@names:notes' ;;
    'notes delete|''1') REPLY='@names:notes' ;;
    'plugin list|''1') REPLY='@names:computers' ;;
    'profile use|''1') REPLY='@profiles' ;;
    'profile show|''1') REPLY='@profiles' ;;
    'profile remove|''1') REPLY='@profiles' ;;
    'profile test|''1') REPLY='@profiles' ;;
    'help|'*) REPLY='@commands options environment exit-codes formats fleet events sandbox' ;;
    *) REPLY= ;;
  esac
}

# Finds option $2 at path $1 or on one of its ancestors (REPLY as _mon_option).
_mon_find_option() {
  local path=$1
  while :; do
    _mon_option "$path" "$2"
    [[ -n $REPLY || -z $path ]] && return
    [[ $path == *' '* ]] && path=${path% *} || path=
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
  read -ra line <<< "${COMP_LINE:0:COMP_POINT}"
  for (( j = 1; j < ${#line[@]}; j++ )); do
    v=${line[j]}
    case $v in
      -p|--profile|--base-url)
        if (( j + 1 < ${#line[@]} )); then j+=1; _mon_acct+=("$v" "${line[j]}"); fi ;;
      --profile=*|--base-url=*|--sandbox) _mon_acct+=("$v") ;;
      --) break ;;
    esac
  done
  # A value typed in quotes (-p 'south'): the quotes are the shell's, not the name's.
  _mon_acct=("${_mon_acct[@]//[\'\"]/}")
}

# Offers the words of $1 ("word word", "@profiles", "@profile-list", "@files", "@names:<kind>", "@commands topic…") that start with $cur.
_mon_offer() {
  local IFS=$' \t\n' parent
  case $1 in
    @profiles) mapfile -t COMPREPLY < <(compgen -W "$(command mon __complete profiles 2>/dev/null)" -- "$cur") ;;
    @profile-list)
      # The names after the last comma; the ones before it stay as typed.
      [[ $cur == *,* ]] && parent=${cur%,*}, || parent=''
      compopt -o nospace 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -P "$parent" -W "$(command mon __complete profiles 2>/dev/null)" -- "${cur##*,}") ;;
    # One name a line, spaces kept: readline quotes them (-o filenames).
    @files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    @names:*)
      # The account's names, one a line (spaces and quotes kept): those that start with what is
      # typed. After a quote the user opened, quoted for that quote (readline closes it): in
      # single quotes a ' becomes '\'', in double quotes \ $ ` and " take a backslash.
      # Else quoted for the shell by printf -v, a builtin: no process for each of 100,000 names.
      local typed=$cur name quoted open='' sq="'\''"
      [[ $typed == [\"\']* ]] && open=${typed:0:1} && typed=${typed:1}
      _mon_account
      COMPREPLY=()
      while IFS= read -r name; do
        [[ $name == "$typed"* ]] || continue
        case $open in
          \') quoted=${name//\'/$sq} ;;
          \") quoted=${name//\\/\\\\}; quoted=${quoted//\$/\\\$}; quoted=${quoted//\`/\\\`}; quoted=${quoted//\"/\\\"} ;;
          *) printf -v quoted '%q' "$name" ;;
        esac
        COMPREPLY+=("$quoted")
      done < <(command mon "${_mon_acct[@]}" __complete "${1#@names:}" 2>/dev/null) ;;
    @commands*)
      # The commands of the parent, and the help topics that follow the word.
      [[ $path == *' '* ]] && parent=${path% *} || parent=''
      _mon_commands "$parent"
      mapfile -t COMPREPLY < <(compgen -W "$REPLY ${1#@commands}" -- "$cur") ;;
    *) mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur") ;;
  esac
}

_mon() {
  local cur=${COMP_WORDS[COMP_CWORD]} path='' word take opt='' prefix='' flags='' p REPLY _mon_aliases
  local -a _mon_acct
  local -i i=1 nargs=0
  COMPREPLY=()
  # Walk the words before the cursor: subcommands move down the tree, option values are skipped.
  while (( i < COMP_CWORD )); do
    word=${COMP_WORDS[i]}
    case $word in
      --) nargs+=1 ;;
      -?*)
        _mon_find_option "$path" "${word%%=*}"
        take=${REPLY%% *}
        if [[ $word != *=* && ( $take == v || ( $take == o && ${COMP_WORDS[i+1]} != -* ) ) ]]; then
          # "--opt value", or "--opt" "=" "value" when COMP_WORDBREAKS splits at "="
          [[ ${COMP_WORDS[i+1]} == = ]] && i+=2 || i+=1
        fi ;;
      *)
        _mon_command "$path" "$word"
        if [[ -n $REPLY ]] && (( nargs == 0 )); then path=$REPLY; else nargs+=1; fi ;;
    esac
    i+=1
  done
  (( i > COMP_CWORD )) && opt=${COMP_WORDS[COMP_CWORD-1]}
  if [[ $cur == = && ${COMP_WORDS[COMP_CWORD-1]} == --* ]]; then
    opt=${COMP_WORDS[COMP_CWORD-1]}; cur=
  elif [[ ${COMP_WORDS[COMP_CWORD-1]} == = ]] && (( COMP_CWORD > 1 )); then
    opt=${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $cur == --*=* ]]; then
    # "--opt=value" in one word (COMP_WORDBREAKS without "="): offer whole words.
    opt=${cur%%=*}; prefix=$opt=; cur=${cur#*=}
  fi
  # The value of an option.
  if [[ -n $opt ]]; then
    _mon_find_option "$path" "$opt"
    if [[ $REPLY == v* ]]; then
      [[ $REPLY == 'v '* ]] && _mon_offer "${REPLY#v }"
      [[ -n $prefix ]] && COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
      return 0
    fi
  fi
  # An option: those of the command and of its ancestors.
  if [[ $cur == -* ]]; then
    p=$path
    while :; do
      _mon_flags "$p"; flags+=" $REPLY"
      [[ -z $p ]] && break
      [[ $p == *' '* ]] && p=${p% *} || p=
    done
    _mon_offer "$flags"
    return 0
  fi
  # A subcommand (its aliases only when no name fits), else an argument.
  if (( nargs == 0 )); then
    _mon_commands "$path"
    if [[ -n $REPLY ]]; then
      _mon_offer "$REPLY"
      (( ${#COMPREPLY[@]} )) || _mon_offer "$_mon_aliases"
      return 0
    fi
  fi
  _mon_argument "$path" $((nargs + 1))
  [[ -n $REPLY ]] && _mon_offer "$REPLY"
  return 0
}

complete -F _mon mon
