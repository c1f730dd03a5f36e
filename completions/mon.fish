# fish completion for mon
# Generated from the command tree by `mon completion fish` (npm run generate): do not edit.
# Install: mon completion fish > ~/.config/fish/completions/mon.fish

# The canonical path of the command that word $argv[2] names below the command at path $argv[1].
function __mon_command
    switch "$argv[1]|$argv[2]"
        case '|groups' '|group'
            echo 'groups'
        case '|computers' '|computer'
            echo 'computers'
        case '|expirations' '|expiration'
            echo 'expirations'
        case '|expiration-manufacturers' '|manufacturers'
            echo 'expiration-manufacturers'
        case '|expiration-products' '|products'
            echo 'expiration-products'
        case '|notes' '|note'
            echo 'notes'
        case '|plugin' '|plugins' '|plugin-results'
            echo 'plugin'
        case '|users' '|user'
            echo 'users'
        case '|alerts'
            echo 'alerts'
        case '|status'
            echo 'status'
        case '|metrics'
            echo 'metrics'
        case '|report'
            echo 'report'
        case '|history'
            echo 'history'
        case '|events'
            echo 'events'
        case '|changes'
            echo 'changes'
        case '|api'
            echo 'api'
        case '|profile' '|profiles'
            echo 'profile'
        case '|sandbox'
            echo 'sandbox'
        case '|completion'
            echo 'completion'
        case '|help'
            echo 'help'
        case 'groups|list' 'groups|ls'
            echo 'groups list'
        case 'groups|get' 'groups|show'
            echo 'groups get'
        case 'groups|find-or-create'
            echo 'groups find-or-create'
        case 'groups|update'
            echo 'groups update'
        case 'computers|list' 'computers|ls'
            echo 'computers list'
        case 'computers|get' 'computers|show'
            echo 'computers get'
        case 'computers|update'
            echo 'computers update'
        case 'expirations|list' 'expirations|ls'
            echo 'expirations list'
        case 'expirations|get' 'expirations|show'
            echo 'expirations get'
        case 'expirations|create'
            echo 'expirations create'
        case 'expirations|update'
            echo 'expirations update'
        case 'expirations|delete' 'expirations|rm'
            echo 'expirations delete'
        case 'expiration-manufacturers|list' 'expiration-manufacturers|ls'
            echo 'expiration-manufacturers list'
        case 'expiration-manufacturers|get' 'expiration-manufacturers|show'
            echo 'expiration-manufacturers get'
        case 'expiration-manufacturers|create'
            echo 'expiration-manufacturers create'
        case 'expiration-manufacturers|update'
            echo 'expiration-manufacturers update'
        case 'expiration-manufacturers|delete' 'expiration-manufacturers|rm'
            echo 'expiration-manufacturers delete'
        case 'expiration-products|list' 'expiration-products|ls'
            echo 'expiration-products list'
        case 'expiration-products|get' 'expiration-products|show'
            echo 'expiration-products get'
        case 'expiration-products|create'
            echo 'expiration-products create'
        case 'expiration-products|update'
            echo 'expiration-products update'
        case 'expiration-products|delete' 'expiration-products|rm'
            echo 'expiration-products delete'
        case 'notes|list' 'notes|ls'
            echo 'notes list'
        case 'notes|get' 'notes|show'
            echo 'notes get'
        case 'notes|create'
            echo 'notes create'
        case 'notes|update'
            echo 'notes update'
        case 'notes|delete' 'notes|rm'
            echo 'notes delete'
        case 'plugin|list' 'plugin|ls'
            echo 'plugin list'
        case 'plugin|mute'
            echo 'plugin mute'
        case 'plugin|unmute'
            echo 'plugin unmute'
        case 'users|list' 'users|ls'
            echo 'users list'
        case 'metrics|serve'
            echo 'metrics serve'
        case 'history|list' 'history|ls'
            echo 'history list'
        case 'history|export'
            echo 'history export'
        case 'history|forget' 'history|rm'
            echo 'history forget'
        case 'events|listen'
            echo 'events listen'
        case 'changes|list' 'changes|ls'
            echo 'changes list'
        case 'changes|forget' 'changes|rm'
            echo 'changes forget'
        case 'profile|add'
            echo 'profile add'
        case 'profile|list' 'profile|ls'
            echo 'profile list'
        case 'profile|set'
            echo 'profile set'
        case 'profile|use'
            echo 'profile use'
        case 'profile|show'
            echo 'profile show'
        case 'profile|remove' 'profile|rm'
            echo 'profile remove'
        case 'profile|test'
            echo 'profile test'
        case 'sandbox|serve'
            echo 'sandbox serve'
        case 'sandbox|trigger'
            echo 'sandbox trigger'
        case 'sandbox|reset'
            echo 'sandbox reset'
        case 'completion|bash'
            echo 'completion bash'
        case 'completion|zsh'
            echo 'completion zsh'
        case 'completion|fish'
            echo 'completion fish'
    end
end

# What option $argv[2] of the command at path $argv[1] (not its ancestors) takes: v (a value) or o (an optional value).
function __mon_option
    switch "$argv[1]|$argv[2]"
        case '|-p' \
            '|--profile' \
            '|--profiles' \
            '|--parallel' \
            '|--base-url' \
            '|-o' \
            '|--output' \
            '|--jq' \
            '|--fields' \
            '|--output-file' \
            '|--expand' \
            '|--timeout' \
            '|--retries' \
            'groups list|--visibility' \
            'groups list|--page' \
            'groups list|--per-page' \
            'groups list|--offset' \
            'groups list|--limit' \
            'groups list|--changes' \
            'groups find-or-create|--name' \
            'groups find-or-create|--description' \
            'groups update|--name' \
            'groups update|--description' \
            'groups update|--reference-email' \
            'computers list|--status' \
            'computers list|--group' \
            'computers list|--created-after' \
            'computers list|--serial-number' \
            'computers list|--asset-id' \
            'computers list|--reference-email-computer' \
            'computers list|--reference-email-group' \
            'computers list|--reference-email' \
            'computers list|--platform' \
            'computers list|--order' \
            'computers list|--page' \
            'computers list|--per-page' \
            'computers list|--offset' \
            'computers list|--limit' \
            'computers list|--changes' \
            'computers update|--asset-id' \
            'computers update|--custom-name' \
            'computers update|--description' \
            'computers update|--reference-email' \
            'computers update|--product-description' \
            'computers update|--estimated-manufacture-date' \
            'computers update|--beacon-missing-threshold' \
            'expirations list|--uid' \
            'expirations list|--manufacturer' \
            'expirations list|--product' \
            'expirations list|--group' \
            'expirations list|--computer' \
            'expirations list|--license-key' \
            'expirations list|--expires-start' \
            'expirations list|--expires-end' \
            'expirations list|--within' \
            'expirations list|--order' \
            'expirations list|--page' \
            'expirations list|--per-page' \
            'expirations list|--offset' \
            'expirations list|--limit' \
            'expirations list|--changes' \
            'expirations create|--license-key' \
            'expirations create|--expires-at' \
            'expirations create|--manufacturer' \
            'expirations create|--product' \
            'expirations create|--group' \
            'expirations create|--computer' \
            'expirations create|--notes' \
            'expirations update|--license-key' \
            'expirations update|--expires-at' \
            'expirations update|--manufacturer' \
            'expirations update|--product' \
            'expirations update|--group' \
            'expirations update|--computer' \
            'expirations update|--notes' \
            'expiration-manufacturers list|--page' \
            'expiration-manufacturers list|--per-page' \
            'expiration-manufacturers list|--offset' \
            'expiration-manufacturers list|--limit' \
            'expiration-manufacturers list|--changes' \
            'expiration-manufacturers create|--name' \
            'expiration-manufacturers update|--name' \
            'expiration-products list|--page' \
            'expiration-products list|--per-page' \
            'expiration-products list|--offset' \
            'expiration-products list|--limit' \
            'expiration-products list|--changes' \
            'expiration-products create|--name' \
            'expiration-products update|--name' \
            'notes list|--computer' \
            'notes list|--group' \
            'notes list|--page' \
            'notes list|--per-page' \
            'notes list|--offset' \
            'notes list|--limit' \
            'notes list|--changes' \
            'notes create|--computer' \
            'notes create|--group' \
            'notes create|--body' \
            'notes create|--body-file' \
            'notes update|--body' \
            'notes update|--body-file' \
            'notes update|--computer' \
            'notes update|--group' \
            'plugin list|--status' \
            'plugin list|--changes' \
            'plugin mute|--ticket' \
            'plugin mute|--ticket-url' \
            'plugin mute|--status' \
            'plugin mute|--plugin' \
            'plugin mute|--group' \
            'plugin mute|--computer' \
            'plugin mute|--ran-since' \
            'plugin mute|--since' \
            'plugin mute|--created-after' \
            'plugin mute|--serial-number' \
            'plugin mute|--asset-id' \
            'plugin mute|--reference-email-computer' \
            'plugin mute|--reference-email-group' \
            'plugin mute|--reference-email' \
            'plugin mute|--platform' \
            'plugin mute|--from' \
            'plugin mute|--max' \
            'plugin unmute|--status' \
            'plugin unmute|--plugin' \
            'plugin unmute|--group' \
            'plugin unmute|--computer' \
            'plugin unmute|--ran-since' \
            'plugin unmute|--since' \
            'plugin unmute|--created-after' \
            'plugin unmute|--serial-number' \
            'plugin unmute|--asset-id' \
            'plugin unmute|--reference-email-computer' \
            'plugin unmute|--reference-email-group' \
            'plugin unmute|--reference-email' \
            'plugin unmute|--platform' \
            'plugin unmute|--from' \
            'plugin unmute|--max' \
            'users list|--page' \
            'users list|--per-page' \
            'users list|--offset' \
            'users list|--limit' \
            'users list|--changes' \
            'alerts|--status' \
            'alerts|--plugin' \
            'alerts|--group' \
            'alerts|--computer' \
            'alerts|--ran-since' \
            'alerts|--since' \
            'alerts|--created-after' \
            'alerts|--serial-number' \
            'alerts|--asset-id' \
            'alerts|--reference-email-computer' \
            'alerts|--reference-email-group' \
            'alerts|--reference-email' \
            'alerts|--platform' \
            'alerts|--changes' \
            'status|--group' \
            'status|--within' \
            'status|--warning-alerts' \
            'status|--critical-alerts' \
            'status|--warning-warnings' \
            'status|--critical-warnings' \
            'status|--warning-missing' \
            'status|--critical-missing' \
            'metrics|--listen' \
            'metrics|--refresh' \
            'metrics|--auth-token-file' \
            'metrics|--basic-auth-file' \
            'metrics|--tls-cert' \
            'metrics|--tls-key' \
            'report|--group' \
            'report|--period' \
            'report|--since' \
            'report|--title' \
            'report|--logo' \
            'report|--footer' \
            'report|--output-dir' \
            'history export|--since' \
            'history export|--account' \
            'history forget|--before' \
            'history forget|--account' \
            'events listen|--listen' \
            'events listen|--path' \
            'events listen|--tls-cert' \
            'events listen|--tls-key' \
            'events listen|--severity' \
            'events listen|--group' \
            'events listen|--computer' \
            'events listen|--plugin' \
            'events listen|--forward-to' \
            'events listen|--exec' \
            'events listen|--exec-parallel' \
            'events listen|--exec-timeout' \
            'events listen|--max-events' \
            'events listen|--for' \
            'api|-F' \
            'api|--field' \
            'profile add|--subdomain' \
            'profile add|--domain' \
            'profile add|--display-name' \
            'profile set|--display-name' \
            'sandbox|--port' \
            'sandbox|--host' \
            'sandbox|--account' \
            'sandbox|--computers' \
            'sandbox|--seed' \
            'sandbox|--rate-limit' \
            'sandbox|--speed' \
            'sandbox|--webhook'
            echo v
        case 'plugin mute|--timed'
            echo o
    end
end

# Sets __mon_path (the command reached) and __mon_nargs (its arguments so far) from the words
# before the cursor; remembered for the command line, since every condition below asks.
function __mon_state
    set -l tokens (commandline -opc)
    set -l key (string join \n -- $tokens)
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
                    printf '%s
' $words[$i] $words[(math $i + 1)]
                end
                set i (math $i + 1)
            case '--profile=*' '--base-url=*' --sandbox
                printf '%s
' $words[$i]
            case --
                break
        end
        set i (math $i + 1)
    end
end

# The account's names of one kind, one a line, from the live cache of the account on the line.
function __mon_names
    command mon (__mon_account) __complete $argv[1] 2>/dev/null
end

complete -c mon -f
complete -c mon -s 'V' -l 'version' -d 'print the version (also: mon version)'
complete -c mon -s 'p' -l 'profile' -x -a '(__mon_profiles)' -d 'saved profile to use (env MON_PROFILE; default: the one set with `profile use`)'
complete -c mon -l 'profiles' -x -a '(__fish_complete_list , __mon_profiles)' -d 'run a read across these saved profiles, side by side (env MON_PROFILES)'
complete -c mon -l 'all-profiles' -d 'run a read across every saved profile, in the order `profile list` shows'
complete -c mon -l 'parallel' -x -d 'with --profiles/--all-profiles: accounts read at once, 1..16 (default 4)'
complete -c mon -l 'base-url' -x -d 'override the profile\'s https://<subdomain>.<service-domain> (env MON_BASE_URL)'
complete -c mon -l 'sandbox' -d 'run against a local sandbox with demo data, started in this process'
complete -c mon -s 'o' -l 'output' -x -a 'table json ndjson csv tsv openmetrics' -d 'output format'
complete -c mon -l 'json' -d 'short for -o json'
complete -c mon -l 'jq' -x -d 'filter JSON output with jq, built in (implies -o json; per item with -o ndjson)'
complete -c mon -l 'fields' -x -d 'comma-separated keys of -o json or table columns (name, flags, owner…), in every format'
complete -c mon -l 'output-file' -r -F -d 'write stdout to PATH: a temporary beside it, renamed over it once the answer is whole; never a half-written PATH'
complete -c mon -l 'no-header' -d 'table/csv/tsv without the header row'
complete -c mon -l 'expand' -x -d 'expand a uid into its object, sent as expand[]=KEY (repeatable, dotted keys allowed)'
complete -c mon -l 'timeout' -x -d 'per-request timeout in seconds (env MON_TIMEOUT; default 30)'
complete -c mon -l 'retries' -x -d 'retries for 429 and transient failures, 0..10 (env MON_RETRIES; default 5)'
complete -c mon -l 'dry-run' -d 'print the request that would be sent (key redacted) and send nothing (a bulk mute sends its reads and prints its plan; profile, changes forget and sandbox reset change nothing and say what they would)'
complete -c mon -s 'y' -l 'yes' -d 'confirm deletes and bulk mutes; without a terminal they are refused without it'
complete -c mon -s 'q' -l 'quiet' -d 'only data on stdout, no notices on stderr'
complete -c mon -s 'v' -l 'verbose' -d 'each request and its status on stderr (key redacted)'
complete -c mon -l 'no-color' -d 'no colour (also NO_COLOR or TERM=dumb; colour is only ever used on a terminal)'
complete -c mon -s 'h' -l 'help' -d 'show help'
complete -c mon -n '__mon_at ""' -a 'groups' -d 'List, show, find-or-create and update groups'
complete -c mon -n '__mon_at ""' -a 'computers' -d 'List, show and update monitored computers'
complete -c mon -n '__mon_at ""' -a 'expirations' -d 'List, show, create, update and delete expirations'
complete -c mon -n '__mon_at ""' -a 'expiration-manufacturers' -d 'List, show, create, rename and delete manufacturers'
complete -c mon -n '__mon_at ""' -a 'expiration-products' -d 'List, show, create, rename and delete products'
complete -c mon -n '__mon_at ""' -a 'notes' -d 'List, show, create, update and delete notes'
complete -c mon -n '__mon_at ""' -a 'plugin' -d 'A computer\'s plugin results; mute and unmute them'
complete -c mon -n '__mon_at ""' -a 'users' -d 'List the people with access to the account'
complete -c mon -n '__mon_at ""' -a 'alerts' -d 'Plugin results that need attention, account-wide'
complete -c mon -n '__mon_at ""' -a 'status' -d 'What needs attention now, or --check for Nagios'
complete -c mon -n '__mon_at ""' -a 'metrics' -d 'Serve the figures of status to Prometheus'
complete -c mon -n '__mon_at ""' -a 'report' -d 'A customer report as one self-contained HTML file'
complete -c mon -n '__mon_at ""' -a 'history' -d 'Daily snapshots per account: list, export, forget'
complete -c mon -n '__mon_at ""' -a 'events' -d 'Receive the service\'s webhooks: show, hand on'
complete -c mon -n '__mon_at ""' -a 'changes' -d 'The saved states of --changes NAME: list, forget'
complete -c mon -n '__mon_at ""' -a 'api' -d 'Send any request to the API, print the JSON answer'
complete -c mon -n '__mon_at ""' -a 'profile' -d 'Save, choose and check accounts (subdomain + key)'
complete -c mon -n '__mon_at ""' -a 'sandbox' -d 'Serve the v2.5 API with demo data, no account needed'
complete -c mon -n '__mon_at ""' -a 'completion' -d 'Print the completion script for bash, zsh or fish'
complete -c mon -n '__mon_at ""' -a 'help' -d 'Show help for a topic or a command'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'group' -d 'alias of groups'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'computer' -d 'alias of computers'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'expiration' -d 'alias of expirations'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'manufacturers' -d 'alias of expiration-manufacturers'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'products' -d 'alias of expiration-products'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'note' -d 'alias of notes'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'plugins' -d 'alias of plugin'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'plugin-results' -d 'alias of plugin'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'user' -d 'alias of users'
complete -c mon -n '__mon_alias "" "groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help"' -a 'profiles' -d 'alias of profile'
complete -c mon -n '__mon_at "groups"' -a 'list' -d 'List groups, sorted by name'
complete -c mon -n '__mon_at "groups"' -a 'get' -d 'Show one group by uid, slug or name'
complete -c mon -n '__mon_at "groups"' -a 'find-or-create' -d 'Return the group with this name, creating it when there is none'
complete -c mon -n '__mon_at "groups"' -a 'update' -d 'Change a group\'s name, description, reference e-mail or contact menu'
complete -c mon -n '__mon_alias "groups" "list get find-or-create update"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "groups" "list get find-or-create update"' -a 'show' -d 'alias of get'
complete -c mon -n '__mon_in "groups list"' -l 'visibility' -x -a 'visible hidden' -d 'only visible or only hidden groups'
complete -c mon -n '__mon_in "groups list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "groups list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "groups list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "groups list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "groups list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "groups list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "groups list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "groups list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_arg "groups get" 1' -a '(__mon_names groups)'
complete -c mon -n '__mon_in "groups find-or-create"' -l 'name' -x -d 'group name (required) (max 255 characters)'
complete -c mon -n '__mon_in "groups find-or-create"' -l 'description' -x -d 'description, included in warnings (max 65535 characters)'
complete -c mon -n '__mon_in "groups find-or-create"' -l 'show-contact-menu' -d 'show the contact menu (default: set per company)'
complete -c mon -n '__mon_in "groups find-or-create"' -l 'no-show-contact-menu' -d 'do not show the contact menu (default: set per company)'
complete -c mon -n '__mon_in "groups find-or-create"' -l 'build-installers' -d 'build the group-specific macOS and Windows installers'
complete -c mon -n '__mon_in "groups update"' -l 'name' -x -d 'new name (max 255 characters)'
complete -c mon -n '__mon_in "groups update"' -l 'description' -x -d 'new description (max 65535 characters)'
complete -c mon -n '__mon_in "groups update"' -l 'reference-email' -x -d 'reference e-mail address (max 191 characters)'
complete -c mon -n '__mon_in "groups update"' -l 'show-contact-menu' -d 'show the contact menu'
complete -c mon -n '__mon_in "groups update"' -l 'no-show-contact-menu' -d 'do not show the contact menu'
complete -c mon -n '__mon_arg "groups update" 1' -a '(__mon_names groups)'
complete -c mon -n '__mon_at "computers"' -a 'list' -d 'List computers, most recently reported first'
complete -c mon -n '__mon_at "computers"' -a 'get' -d 'Show one computer by its client id or uid'
complete -c mon -n '__mon_at "computers"' -a 'update' -d 'Change a computer\'s asset id, names, description, reference e-mail or beacon settings'
complete -c mon -n '__mon_alias "computers" "list get update"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "computers" "list get update"' -a 'show' -d 'alias of get'
complete -c mon -n '__mon_in "computers list"' -l 'status' -x -a 'visible hidden missing pending_rekey pending_removal has_muted_plugin' -d 'only computers in this state'
complete -c mon -n '__mon_in "computers list"' -l 'group' -x -a '(__mon_names groups)' -d 'only computers of this group (uid, slug or name) (max 255 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'created-after' -x -d 'only computers first seen after this date (YYYY-MM-DD)'
complete -c mon -n '__mon_in "computers list"' -l 'serial-number' -x -d 'only this serial number (max 255 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'asset-id' -x -d 'only this asset id (max 191 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'reference-email-computer' -x -d 'by the computer record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'reference-email-group' -x -d 'by the group record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'reference-email' -x -d 'by either reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'platform' -x -a 'mac linux windows' -d 'only this platform (repeatable, or a comma-separated list)'
complete -c mon -n '__mon_in "computers list"' -l 'order' -x -a 'last_reported_desc reported_desc created_desc' -d 'sort order (default: last_reported_desc)'
complete -c mon -n '__mon_in "computers list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "computers list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "computers list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "computers list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "computers list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "computers list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "computers list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "computers list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_arg "computers get" 1' -a '(__mon_names computers)'
complete -c mon -n '__mon_in "computers update"' -l 'asset-id' -x -d 'asset id (max 191 characters)'
complete -c mon -n '__mon_in "computers update"' -l 'custom-name' -x -d 'display name in the dashboard (max 191 characters)'
complete -c mon -n '__mon_in "computers update"' -l 'description' -x -d 'description, included in warnings (max 65535 characters)'
complete -c mon -n '__mon_in "computers update"' -l 'reference-email' -x -d 'reference e-mail address (max 191 characters)'
complete -c mon -n '__mon_in "computers update"' -l 'product-description' -x -d 'model name shown for the computer (max 65535 characters)'
complete -c mon -n '__mon_in "computers update"' -l 'estimated-manufacture-date' -x -d 'estimated manufacture date (YYYY-MM-DD)'
complete -c mon -n '__mon_in "computers update"' -l 'beacon-reporting' -d 'enable beacon reporting'
complete -c mon -n '__mon_in "computers update"' -l 'no-beacon-reporting' -d 'do not enable beacon reporting'
complete -c mon -n '__mon_in "computers update"' -l 'beacon-missing-threshold' -x -a '2 5 10 15 20 30' -d 'minutes before a beacon warning'
complete -c mon -n '__mon_in "computers update"' -l 'create-ticket-on-beacon-found' -d 'send an alert when the computer comes online'
complete -c mon -n '__mon_in "computers update"' -l 'no-create-ticket-on-beacon-found' -d 'do not send an alert when the computer comes online'
complete -c mon -n '__mon_arg "computers update" 1' -a '(__mon_names computers)'
complete -c mon -n '__mon_at "expirations"' -a 'list' -d 'List expirations, soonest expiry first'
complete -c mon -n '__mon_at "expirations"' -a 'get' -d 'Show one expiration'
complete -c mon -n '__mon_at "expirations"' -a 'create' -d 'Record a license or warranty expiry for a group or a computer'
complete -c mon -n '__mon_at "expirations"' -a 'update' -d 'Change an expiration\'s license key, date, manufacturer, product, owner, renewal or notes'
complete -c mon -n '__mon_at "expirations"' -a 'delete' -d 'Delete an expiration for good'
complete -c mon -n '__mon_alias "expirations" "list get create update delete"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "expirations" "list get create update delete"' -a 'show' -d 'alias of get'
complete -c mon -n '__mon_alias "expirations" "list get create update delete"' -a 'rm' -d 'alias of delete'
complete -c mon -n '__mon_in "expirations list"' -l 'uid' -x -d 'only this expiration (e_…)'
complete -c mon -n '__mon_in "expirations list"' -l 'manufacturer' -x -d 'only this expiration manufacturer (uid, slug or name) (max 191 characters)'
complete -c mon -n '__mon_in "expirations list"' -l 'product' -x -d 'only this expiration product (uid, slug or name) (max 191 characters)'
complete -c mon -n '__mon_in "expirations list"' -l 'group' -x -a '(__mon_names groups)' -d 'only expirations of this group (uid, slug or name) (max 255 characters)'
complete -c mon -n '__mon_in "expirations list"' -l 'computer' -x -a '(__mon_names computers)' -d 'only expirations of this computer (client id or c_ uid) (max 191 characters)'
complete -c mon -n '__mon_in "expirations list"' -l 'license-key' -x -d 'only this license key (max 191 characters)'
complete -c mon -n '__mon_in "expirations list"' -l 'expires-start' -x -d 'expiring on or after this day, YYYY-MM-DD UTC (with --expires-end)'
complete -c mon -n '__mon_in "expirations list"' -l 'expires-end' -x -d 'expiring on or before this day, YYYY-MM-DD UTC, whole day included (with --expires-start)'
complete -c mon -n '__mon_in "expirations list"' -l 'within' -x -d 'expiring from today through this long from now: 30d, 2w, 12h'
complete -c mon -n '__mon_in "expirations list"' -l 'expired' -d 'already expired (a day before today, UTC)'
complete -c mon -n '__mon_in "expirations list"' -l 'order' -x -a 'soonest latest' -d 'soonest (every page read, then sorted) or latest (the API\'s order, paged) (default: soonest)'
complete -c mon -n '__mon_in "expirations list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "expirations list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "expirations list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "expirations list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "expirations list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "expirations list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "expirations list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "expirations list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_arg "expirations get" 1' -a '(__mon_names expirations)'
complete -c mon -n '__mon_in "expirations create"' -l 'license-key' -x -d 'required: license, serial number or other identifier (max 191 characters)'
complete -c mon -n '__mon_in "expirations create"' -l 'expires-at' -x -d 'required: expiry date, YYYY-MM-DD (sent as epoch seconds of its UTC midnight)'
complete -c mon -n '__mon_in "expirations create"' -l 'manufacturer' -x -d 'required: expiration manufacturer: uid, slug or name (max 191 characters)'
complete -c mon -n '__mon_in "expirations create"' -l 'product' -x -d 'required: expiration product: uid, slug or name (max 191 characters)'
complete -c mon -n '__mon_in "expirations create"' -l 'group' -x -a '(__mon_names groups)' -d 'the group it belongs to: uid, slug or name; give --group or --computer (max 255 characters)'
complete -c mon -n '__mon_in "expirations create"' -l 'computer' -x -a '(__mon_names computers)' -d 'the computer it belongs to: client id or c_ uid; it is then also related to that computer\'s group; give --group or --computer (max 191 characters)'
complete -c mon -n '__mon_in "expirations create"' -l 'renewable' -d 'mark it renewable (default: not renewable)'
complete -c mon -n '__mon_in "expirations create"' -l 'no-renewable' -d 'do not mark it renewable'
complete -c mon -n '__mon_in "expirations create"' -l 'notes' -x -d 'notes (max 65535 characters)'
complete -c mon -n '__mon_in "expirations update"' -l 'license-key' -x -d 'license, serial number or other identifier (max 191 characters)'
complete -c mon -n '__mon_in "expirations update"' -l 'expires-at' -x -d 'expiry date, YYYY-MM-DD (sent as epoch seconds of its UTC midnight)'
complete -c mon -n '__mon_in "expirations update"' -l 'manufacturer' -x -d 'expiration manufacturer: uid, slug or name (max 191 characters)'
complete -c mon -n '__mon_in "expirations update"' -l 'product' -x -d 'expiration product: uid, slug or name (max 191 characters)'
complete -c mon -n '__mon_in "expirations update"' -l 'group' -x -a '(__mon_names groups)' -d 'the group it belongs to: uid, slug or name (max 255 characters)'
complete -c mon -n '__mon_in "expirations update"' -l 'computer' -x -a '(__mon_names computers)' -d 'the computer it belongs to: client id or c_ uid; it is then also related to that computer\'s group (max 191 characters)'
complete -c mon -n '__mon_in "expirations update"' -l 'renewable' -d 'mark it renewable'
complete -c mon -n '__mon_in "expirations update"' -l 'no-renewable' -d 'do not mark it renewable'
complete -c mon -n '__mon_in "expirations update"' -l 'notes' -x -d 'notes (max 65535 characters)'
complete -c mon -n '__mon_arg "expirations update" 1' -a '(__mon_names expirations)'
complete -c mon -n '__mon_arg "expirations delete" 1' -a '(__mon_names expirations)'
complete -c mon -n '__mon_at "expiration-manufacturers"' -a 'list' -d 'List expiration manufacturers, sorted by name'
complete -c mon -n '__mon_at "expiration-manufacturers"' -a 'get' -d 'Show one expiration manufacturer'
complete -c mon -n '__mon_at "expiration-manufacturers"' -a 'create' -d 'Create an expiration manufacturer'
complete -c mon -n '__mon_at "expiration-manufacturers"' -a 'update' -d 'Rename an expiration manufacturer'
complete -c mon -n '__mon_at "expiration-manufacturers"' -a 'delete' -d 'Delete an expiration manufacturer for good'
complete -c mon -n '__mon_alias "expiration-manufacturers" "list get create update delete"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "expiration-manufacturers" "list get create update delete"' -a 'show' -d 'alias of get'
complete -c mon -n '__mon_alias "expiration-manufacturers" "list get create update delete"' -a 'rm' -d 'alias of delete'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "expiration-manufacturers list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_in "expiration-manufacturers create"' -l 'name' -x -d 'expiration manufacturer name (required) (max 191 characters)'
complete -c mon -n '__mon_in "expiration-manufacturers update"' -l 'name' -x -d 'new expiration manufacturer name (required) (max 191 characters)'
complete -c mon -n '__mon_at "expiration-products"' -a 'list' -d 'List expiration products, sorted by name'
complete -c mon -n '__mon_at "expiration-products"' -a 'get' -d 'Show one expiration product'
complete -c mon -n '__mon_at "expiration-products"' -a 'create' -d 'Create an expiration product'
complete -c mon -n '__mon_at "expiration-products"' -a 'update' -d 'Rename an expiration product'
complete -c mon -n '__mon_at "expiration-products"' -a 'delete' -d 'Delete an expiration product for good'
complete -c mon -n '__mon_alias "expiration-products" "list get create update delete"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "expiration-products" "list get create update delete"' -a 'show' -d 'alias of get'
complete -c mon -n '__mon_alias "expiration-products" "list get create update delete"' -a 'rm' -d 'alias of delete'
complete -c mon -n '__mon_in "expiration-products list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "expiration-products list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "expiration-products list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "expiration-products list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "expiration-products list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "expiration-products list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "expiration-products list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "expiration-products list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_in "expiration-products create"' -l 'name' -x -d 'expiration product name (required) (max 191 characters)'
complete -c mon -n '__mon_in "expiration-products update"' -l 'name' -x -d 'new expiration product name (required) (max 191 characters)'
complete -c mon -n '__mon_at "notes"' -a 'list' -d 'List notes of the account, of one computer or of one group'
complete -c mon -n '__mon_at "notes"' -a 'get' -d 'Show one note'
complete -c mon -n '__mon_at "notes"' -a 'create' -d 'Add a note to a computer or a group'
complete -c mon -n '__mon_at "notes"' -a 'update' -d 'Change a note\'s text, owner, or its private, e-mail and report flags'
complete -c mon -n '__mon_at "notes"' -a 'delete' -d 'Delete a note for good'
complete -c mon -n '__mon_alias "notes" "list get create update delete"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "notes" "list get create update delete"' -a 'show' -d 'alias of get'
complete -c mon -n '__mon_alias "notes" "list get create update delete"' -a 'rm' -d 'alias of delete'
complete -c mon -n '__mon_in "notes list"' -l 'computer' -x -a '(__mon_names computers)' -d 'only notes of this computer (client id or c_ uid) (max 191 characters)'
complete -c mon -n '__mon_in "notes list"' -l 'group' -x -a '(__mon_names groups)' -d 'only notes of this group (uid, slug or name) (max 255 characters)'
complete -c mon -n '__mon_in "notes list"' -l 'include-private' -d 'include private notes (default: left out)'
complete -c mon -n '__mon_in "notes list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "notes list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "notes list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "notes list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "notes list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "notes list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "notes list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "notes list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_arg "notes get" 1' -a '(__mon_names notes)'
complete -c mon -n '__mon_in "notes create"' -l 'computer' -x -a '(__mon_names computers)' -d 'the computer it belongs to (client id or c_ uid); give --computer or --group (max 191 characters)'
complete -c mon -n '__mon_in "notes create"' -l 'group' -x -a '(__mon_names groups)' -d 'the group it belongs to (uid, slug or name); give --computer or --group (max 255 characters)'
complete -c mon -n '__mon_in "notes create"' -l 'body' -x -d 'the note text (max 16777215 characters)'
complete -c mon -n '__mon_in "notes create"' -l 'body-file' -r -F -d 'read the note text from a file, or from stdin with - (max 16777215 characters)'
complete -c mon -n '__mon_in "notes create"' -l 'private' -d 'visible only internally (default: not private)'
complete -c mon -n '__mon_in "notes create"' -l 'include-in-email' -d 'include it in e-mails (default: not included)'
complete -c mon -n '__mon_in "notes create"' -l 'include-in-report' -d 'include it in computer and group status reports (default: not included)'
complete -c mon -n '__mon_in "notes update"' -l 'body' -x -d 'the note text (max 16777215 characters)'
complete -c mon -n '__mon_in "notes update"' -l 'body-file' -r -F -d 'read the note text from a file, or from stdin with - (max 16777215 characters)'
complete -c mon -n '__mon_in "notes update"' -l 'computer' -x -a '(__mon_names computers)' -d 'the computer it belongs to (client id or c_ uid); moves the note there (max 191 characters)'
complete -c mon -n '__mon_in "notes update"' -l 'group' -x -a '(__mon_names groups)' -d 'the group it belongs to (uid, slug or name); moves the note there (max 255 characters)'
complete -c mon -n '__mon_in "notes update"' -l 'private' -d 'make it visible only internally'
complete -c mon -n '__mon_in "notes update"' -l 'no-private' -d 'do not make it visible only internally'
complete -c mon -n '__mon_in "notes update"' -l 'include-in-email' -d 'include it in e-mails'
complete -c mon -n '__mon_in "notes update"' -l 'no-include-in-email' -d 'do not include it in e-mails'
complete -c mon -n '__mon_in "notes update"' -l 'include-in-report' -d 'include it in computer and group status reports'
complete -c mon -n '__mon_in "notes update"' -l 'no-include-in-report' -d 'do not include it in computer and group status reports'
complete -c mon -n '__mon_arg "notes update" 1' -a '(__mon_names notes)'
complete -c mon -n '__mon_arg "notes delete" 1' -a '(__mon_names notes)'
complete -c mon -n '__mon_at "plugin"' -a 'list' -d 'List a computer\'s plugin results (service plugins hidden)'
complete -c mon -n '__mon_at "plugin"' -a 'mute' -d 'Mute a plugin result, or many by selectors, for a time, under a ticket, or until unmuted'
complete -c mon -n '__mon_at "plugin"' -a 'unmute' -d 'Clear a plugin result\'s mute, or many by selectors'
complete -c mon -n '__mon_alias "plugin" "list mute unmute"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_in "plugin list"' -l 'status' -x -a 'OK Warning Alert Informational' -d 'only results with this status'
complete -c mon -n '__mon_in "plugin list"' -l 'muted' -d 'only muted results'
complete -c mon -n '__mon_in "plugin list"' -l 'unmuted' -d 'only results that are not muted'
complete -c mon -n '__mon_in "plugin list"' -l 'include-hidden' -d 'also show service plugins (visible false), which the dashboard hides'
complete -c mon -n '__mon_in "plugin list"' -l 'all' -d 'every item (this list is always read whole)'
complete -c mon -n '__mon_in "plugin list"' -l 'count' -d 'print only the number of items'
complete -c mon -n '__mon_in "plugin list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "plugin list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_arg "plugin list" 1' -a '(__mon_names computers)'
complete -c mon -n '__mon_in "plugin mute"' -l 'timed' -d 'mute until WHEN: duration, ISO 8601 time or epoch seconds, in the future, before 2038-01-19 (default: 24h)'
complete -c mon -n '__mon_in "plugin mute"' -l 'ticket' -x -d 'mute under this ticket number (max 255 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'ignore' -d 'mute until unmuted'
complete -c mon -n '__mon_in "plugin mute"' -l 'ticket-url' -x -d 'link to the ticket, with --timed or --ticket (max 255 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'status' -x -a 'OK Warning Alert Informational' -d 'only results with this status (repeatable; default every status)'
complete -c mon -n '__mon_in "plugin mute"' -l 'include-hidden' -d 'also service plugins (visible false), which the dashboard hides'
complete -c mon -n '__mon_in "plugin mute"' -l 'plugin' -x -a '(__mon_names plugins)' -d 'only this plugin, by name or slug, any case (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'group' -x -a '(__mon_names groups)' -d 'only computers of this group: uid, slug or name (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'computer' -x -a '(__mon_names computers)' -d 'only this computer: client_id or c_ uid (repeatable) (max 191 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'missing' -d 'only results of missing computers'
complete -c mon -n '__mon_in "plugin mute"' -l 'ran-since' -x -d 'only results whose plugin last ran at or after WHEN (not when it began to alert: the API keeps no such time): a duration back (2h, 7d), an ISO 8601 time or epoch seconds'
complete -c mon -n '__mon_in "plugin mute"' -l 'since' -x -d 'the old name of --ran-since, still taken (it says so on stderr)'
complete -c mon -n '__mon_in "plugin mute"' -l 'created-after' -x -d 'only computers first seen after this date (YYYY-MM-DD)'
complete -c mon -n '__mon_in "plugin mute"' -l 'serial-number' -x -d 'only this serial number (max 255 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'asset-id' -x -d 'only this asset id (max 191 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'reference-email-computer' -x -d 'by the computer record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'reference-email-group' -x -d 'by the group record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'reference-email' -x -d 'by either reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "plugin mute"' -l 'platform' -x -a 'mac linux windows' -d 'only this platform (repeatable, or a comma-separated list)'
complete -c mon -n '__mon_in "plugin mute"' -l 'from' -r -F -d 'only the plugin results named in FILE (- for standard input): a uid a line, or ndjson lines with a uid, as `mon alerts -o ndjson` prints'
complete -c mon -n '__mon_in "plugin mute"' -l 'max' -x -d 'refuse a selection of more than n plugin results, so a typo in a filter cannot mute the fleet (default: 1000)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'status' -x -a 'OK Warning Alert Informational' -d 'only results with this status (repeatable; default every status)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'include-hidden' -d 'also service plugins (visible false), which the dashboard hides'
complete -c mon -n '__mon_in "plugin unmute"' -l 'plugin' -x -a '(__mon_names plugins)' -d 'only this plugin, by name or slug, any case (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'group' -x -a '(__mon_names groups)' -d 'only computers of this group: uid, slug or name (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'computer' -x -a '(__mon_names computers)' -d 'only this computer: client_id or c_ uid (repeatable) (max 191 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'missing' -d 'only results of missing computers'
complete -c mon -n '__mon_in "plugin unmute"' -l 'ran-since' -x -d 'only results whose plugin last ran at or after WHEN (not when it began to alert: the API keeps no such time): a duration back (2h, 7d), an ISO 8601 time or epoch seconds'
complete -c mon -n '__mon_in "plugin unmute"' -l 'since' -x -d 'the old name of --ran-since, still taken (it says so on stderr)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'created-after' -x -d 'only computers first seen after this date (YYYY-MM-DD)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'serial-number' -x -d 'only this serial number (max 255 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'asset-id' -x -d 'only this asset id (max 191 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'reference-email-computer' -x -d 'by the computer record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'reference-email-group' -x -d 'by the group record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'reference-email' -x -d 'by either reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'platform' -x -a 'mac linux windows' -d 'only this platform (repeatable, or a comma-separated list)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'from' -r -F -d 'only the plugin results named in FILE (- for standard input): a uid a line, or ndjson lines with a uid, as `mon alerts -o ndjson` prints'
complete -c mon -n '__mon_in "plugin unmute"' -l 'max' -x -d 'refuse a selection of more than n plugin results, so a typo in a filter cannot mute the fleet (default: 1000)'
complete -c mon -n '__mon_in "plugin unmute"' -l 'timed-only' -d 'with selectors, lift timed mutes only: those muted for good or under a ticket stay muted'
complete -c mon -n '__mon_at "users"' -a 'list' -d 'List users of the account'
complete -c mon -n '__mon_alias "users" "list"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_in "users list"' -l 'page' -x -d 'page to fetch (default 1)'
complete -c mon -n '__mon_in "users list"' -l 'per-page' -x -d 'items per page, 1..100 (default 50; 100 with --all)'
complete -c mon -n '__mon_in "users list"' -l 'offset' -x -d 'skip this many records (offset 5 starts at record 6)'
complete -c mon -n '__mon_in "users list"' -l 'all' -d 'follow the pagination headers to the last page'
complete -c mon -n '__mon_in "users list"' -l 'limit' -x -d 'print at most n items, fetching further pages as needed'
complete -c mon -n '__mon_in "users list"' -l 'count' -d 'print only the total number of records (x-total)'
complete -c mon -n '__mon_in "users list"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "users list"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_in "alerts"' -l 'status' -x -a 'OK Warning Alert Informational' -d 'only results with this status (repeatable; default Alert and Warning)'
complete -c mon -n '__mon_in "alerts"' -l 'muted' -d 'only muted results'
complete -c mon -n '__mon_in "alerts"' -l 'include-muted' -d 'muted and unmuted results alike'
complete -c mon -n '__mon_in "alerts"' -l 'include-hidden' -d 'also service plugins (visible false), which the dashboard hides'
complete -c mon -n '__mon_in "alerts"' -l 'plugin' -x -a '(__mon_names plugins)' -d 'only this plugin, by name or slug, any case (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'group' -x -a '(__mon_names groups)' -d 'only computers of this group: uid, slug or name (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'computer' -x -a '(__mon_names computers)' -d 'only this computer: client_id or c_ uid (repeatable) (max 191 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'missing' -d 'only results of missing computers'
complete -c mon -n '__mon_in "alerts"' -l 'ran-since' -x -d 'only results whose plugin last ran at or after WHEN (not when it began to alert: the API keeps no such time): a duration back (2h, 7d), an ISO 8601 time or epoch seconds'
complete -c mon -n '__mon_in "alerts"' -l 'since' -x -d 'the old name of --ran-since, still taken (it says so on stderr)'
complete -c mon -n '__mon_in "alerts"' -l 'created-after' -x -d 'only computers first seen after this date (YYYY-MM-DD)'
complete -c mon -n '__mon_in "alerts"' -l 'serial-number' -x -d 'only this serial number (max 255 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'asset-id' -x -d 'only this asset id (max 191 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'reference-email-computer' -x -d 'by the computer record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'reference-email-group' -x -d 'by the group record\'s reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'reference-email' -x -d 'by either reference e-mail (max 191 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'platform' -x -a 'mac linux windows' -d 'only this platform (repeatable, or a comma-separated list)'
complete -c mon -n '__mon_in "alerts"' -l 'all' -d 'every item (this list is always read whole)'
complete -c mon -n '__mon_in "alerts"' -l 'count' -d 'print only the number of items'
complete -c mon -n '__mon_in "alerts"' -l 'changes' -x -d 'print only what is new, gone or changed since the last run with this NAME (the first run records a baseline and prints nothing); reads every page (max 64 characters)'
complete -c mon -n '__mon_in "alerts"' -l 'reset' -d 'with --changes: forget the saved state of NAME and record a new baseline'
complete -c mon -n '__mon_in "status"' -l 'group' -x -a '(__mon_names groups)' -d 'only computers of this group: uid, slug or name (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "status"' -l 'within' -x -d 'how far ahead an expiration counts as expiring (30d, 2w) (default: 30d)'
complete -c mon -n '__mon_in "status"' -l 'check' -d 'print one Nagios plugin line and exit 0, 1, 2 or 3'
complete -c mon -n '__mon_in "status"' -l 'warning-alerts' -x -d 'WARNING when unmuted alerts are outside this range; with --check'
complete -c mon -n '__mon_in "status"' -l 'critical-alerts' -x -d 'CRITICAL when unmuted alerts are outside this range (default: 0, so any alert); with --check'
complete -c mon -n '__mon_in "status"' -l 'warning-warnings' -x -d 'WARNING when unmuted warnings are outside this range (default: 0); with --check'
complete -c mon -n '__mon_in "status"' -l 'critical-warnings' -x -d 'CRITICAL when unmuted warnings are outside this range; with --check'
complete -c mon -n '__mon_in "status"' -l 'warning-missing' -x -d 'WARNING when missing computers are outside this range (default: 0); with --check'
complete -c mon -n '__mon_in "status"' -l 'critical-missing' -x -d 'CRITICAL when missing computers are outside this range; with --check'
complete -c mon -n '__mon_in "metrics"' -l 'listen' -x -d 'address and port to serve on (host:port, [v6]:port, :port for 127.0.0.1) (default: 127.0.0.1:9860)'
complete -c mon -n '__mon_in "metrics"' -l 'refresh' -x -d 'how often each account is read (1m to 24h) (default: 5m)'
complete -c mon -n '__mon_in "metrics"' -l 'auth-token-file' -r -F -d 'a file holding the bearer token every request must present'
complete -c mon -n '__mon_in "metrics"' -l 'basic-auth-file' -r -F -d 'a file holding user:password, for HTTP basic auth instead of a token'
complete -c mon -n '__mon_in "metrics"' -l 'tls-cert' -r -F -d 'serve HTTPS with this certificate (PEM), with --tls-key'
complete -c mon -n '__mon_in "metrics"' -l 'tls-key' -r -F -d 'the private key of --tls-cert (PEM)'
complete -c mon -n '__mon_in "metrics"' -l 'insecure' -d 'plain HTTP on an address other than loopback (still with --auth-token-file)'
complete -c mon -n '__mon_at "metrics"' -a 'serve' -d 'A Prometheus exporter: /metrics, /probe?profile=NAME'
complete -c mon -n '__mon_in "report"' -l 'group' -x -a '(__mon_names groups)' -d 'only computers of this group: uid, slug or name (repeatable) (max 255 characters)'
complete -c mon -n '__mon_in "report"' -l 'period' -x -d 'the calendar month the report covers, YYYY-MM (UTC days)'
complete -c mon -n '__mon_in "report"' -l 'since' -x -d 'the report covers the days since WHEN (30d, 2w, an ISO 8601 time) (default: 30d)'
complete -c mon -n '__mon_in "report"' -l 'title' -x -d 'the report\'s title (default: "Fleet report") (max 200 characters)'
complete -c mon -n '__mon_in "report"' -l 'logo' -r -F -d 'a PNG, JPEG, GIF, WebP or SVG image shown at the top, embedded (at most 1 MiB) (max 4096 characters)'
complete -c mon -n '__mon_in "report"' -l 'footer' -x -d 'a line at the foot of the report, e.g. your company\'s name (max 500 characters)'
complete -c mon -n '__mon_in "report"' -l 'output-dir' -r -F -d 'write <account>.html there instead of printing (one file per account) (max 4096 characters)'
complete -c mon -n '__mon_at "history"' -a 'list' -d 'The accounts with snapshots: how many days, first and last'
complete -c mon -n '__mon_at "history"' -a 'export' -d 'The snapshots of the profile in effect, oldest first (-o ndjson, csv)'
complete -c mon -n '__mon_at "history"' -a 'forget' -d 'Forget the snapshots of the profile in effect (all, or --before a day)'
complete -c mon -n '__mon_alias "history" "list export forget"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "history" "list export forget"' -a 'rm' -d 'alias of forget'
complete -c mon -n '__mon_in "history list"' -l 'all' -d 'every item (this list is always read whole)'
complete -c mon -n '__mon_in "history list"' -l 'count' -d 'print only the number of items'
complete -c mon -n '__mon_in "history export"' -l 'since' -x -d 'only the days from WHEN\'s UTC day on (30d, 2w, an ISO 8601 time)'
complete -c mon -n '__mon_in "history export"' -l 'account' -x -d 'the account as `mon history list` names it (a profile, or @host of a base URL), instead of the one in effect: no key needed'
complete -c mon -n '__mon_in "history forget"' -l 'before' -x -d 'only the days before DAY (YYYY-MM-DD)'
complete -c mon -n '__mon_in "history forget"' -l 'account' -x -d 'the account as `mon history list` names it (a profile, or @host of a base URL), instead of the one in effect: no key needed'
complete -c mon -n '__mon_at "events"' -a 'listen' -d 'Receive the service\'s webhooks until stopped'
complete -c mon -n '__mon_in "events listen"' -l 'listen' -x -d 'address to listen on (default: 127.0.0.1:8787)'
complete -c mon -n '__mon_in "events listen"' -l 'path' -r -F -d 'path deliveries are posted to (max 200 characters, default: /events)'
complete -c mon -n '__mon_in "events listen"' -l 'tls-cert' -r -F -d 'serve HTTPS with this PEM certificate (chain), with --tls-key'
complete -c mon -n '__mon_in "events listen"' -l 'tls-key' -r -F -d 'the PEM key of --tls-cert'
complete -c mon -n '__mon_in "events listen"' -l 'insecure' -d 'serve plain HTTP on an address other than loopback'
complete -c mon -n '__mon_in "events listen"' -l 'severity' -x -d 'only events of this severity (alert, warning, ok…; repeat or comma-separate for any of them)'
complete -c mon -n '__mon_in "events listen"' -l 'group' -x -a '(__mon_names groups)' -d 'only events of this group (name or uid as the event carries it; repeatable)'
complete -c mon -n '__mon_in "events listen"' -l 'computer' -x -a '(__mon_names computers)' -d 'only events of this computer (name or client id as the event carries it; repeatable)'
complete -c mon -n '__mon_in "events listen"' -l 'plugin' -x -a '(__mon_names plugins)' -d 'only events of this plugin (repeatable)'
complete -c mon -n '__mon_in "events listen"' -l 'include-tests' -d 'show and hand on test deliveries (svc_test, connection_test) too; without it they are answered and noted on stderr'
complete -c mon -n '__mon_in "events listen"' -l 'forward-to' -x -d 'post each delivery on to this URL (body and content type as received); a delivery it does not accept with 2xx is answered 503'
complete -c mon -n '__mon_in "events listen"' -l 'exec' -x -d 'run this shell command for each event, the event (JSON) on its stdin; a failure is logged and counted'
complete -c mon -n '__mon_in "events listen"' -l 'exec-parallel' -x -d 'how many --exec commands run at once, 1..32 (default: 4)'
complete -c mon -n '__mon_in "events listen"' -l 'exec-timeout' -x -d 'how long one --exec command may run (then it is stopped and counted as failed) (default: 30s)'
complete -c mon -n '__mon_in "events listen"' -l 'max-events' -x -d 'stop after this many events'
complete -c mon -n '__mon_in "events listen"' -l 'for' -x -d 'stop after this long (30s, 10m, 2h)'
complete -c mon -n '__mon_at "changes"' -a 'list' -d 'List the names saved by --changes, for every profile: command line, when, how many items'
complete -c mon -n '__mon_at "changes"' -a 'forget' -d 'Forget the state saved under NAME for the profile in effect: its next run records a new baseline'
complete -c mon -n '__mon_alias "changes" "list forget"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "changes" "list forget"' -a 'rm' -d 'alias of forget'
complete -c mon -n '__mon_in "changes list"' -l 'all' -d 'every item (this list is always read whole)'
complete -c mon -n '__mon_in "changes list"' -l 'count' -d 'print only the number of items'
complete -c mon -n '__mon_in "api"' -s 'F' -l 'field' -x -d 'a parameter (repeatable): query string for GET, form body otherwise'
complete -c mon -n '__mon_in "api"' -l 'paginate' -d 'GET only: follow the pagination headers to the last page (per_page 100) and print one JSON array'
complete -c mon -n '__mon_in "api"' -s 'i' -l 'include' -d 'print the status line and the response headers before the body'
complete -c mon -n '__mon_at "profile"' -a 'add' -d 'Save a profile; the key is read from a hidden prompt or from stdin'
complete -c mon -n '__mon_at "profile"' -a 'list' -d 'List saved profiles (keys masked)'
complete -c mon -n '__mon_at "profile"' -a 'set' -d 'Change what a saved profile shows: its display name'
complete -c mon -n '__mon_at "profile"' -a 'use' -d 'Make a profile the default'
complete -c mon -n '__mon_at "profile"' -a 'show' -d 'Show a profile (the default without a name); the key is masked'
complete -c mon -n '__mon_at "profile"' -a 'remove' -d 'Forget a saved profile and its key'
complete -c mon -n '__mon_at "profile"' -a 'test' -d 'Check that a profile reaches the API with a valid key (one cheap request)'
complete -c mon -n '__mon_alias "profile" "add list set use show remove test"' -a 'ls' -d 'alias of list'
complete -c mon -n '__mon_alias "profile" "add list set use show remove test"' -a 'rm' -d 'alias of remove'
complete -c mon -n '__mon_in "profile add"' -l 'subdomain' -x -d 'the subscriber subdomain (max 63 characters)'
complete -c mon -n '__mon_in "profile add"' -l 'domain' -x -d 'the service domain (max 253 characters)'
complete -c mon -n '__mon_in "profile add"' -l 'api-key-stdin' -d 'read the API key from standard input'
complete -c mon -n '__mon_in "profile add"' -l 'default' -d 'make it the default profile'
complete -c mon -n '__mon_in "profile add"' -l 'display-name' -x -d 'the customer\'s name as reports show it, e.g. "Acme Design Ltd" (max 200 characters)'
complete -c mon -n '__mon_in "profile list"' -l 'all' -d 'every item (this list is always read whole)'
complete -c mon -n '__mon_in "profile list"' -l 'count' -d 'print only the number of items'
complete -c mon -n '__mon_in "profile set"' -l 'display-name' -x -d 'the customer\'s name as reports show it, e.g. "Acme Design Ltd" (max 200 characters)'
complete -c mon -n '__mon_arg "profile use" 1' -a '(__mon_profiles)'
complete -c mon -n '__mon_arg "profile show" 1' -a '(__mon_profiles)'
complete -c mon -n '__mon_arg "profile remove" 1' -a '(__mon_profiles)'
complete -c mon -n '__mon_arg "profile test" 1' -a '(__mon_profiles)'
complete -c mon -n '__mon_in "sandbox"' -l 'port' -x -d 'port to listen on (default: any free port) (0..65535)'
complete -c mon -n '__mon_in "sandbox"' -l 'host' -x -a '127.0.0.1 localhost ::1' -d 'loopback address to listen on (default: 127.0.0.1)'
complete -c mon -n '__mon_in "sandbox"' -l 'account' -x -d 'a demo account of its own: its own data, key and state (a-z, 0-9 and -, up to 32)'
complete -c mon -n '__mon_in "sandbox"' -l 'computers' -x -d 'how many computers to seed (default 40); another size is another state (1..100000)'
complete -c mon -n '__mon_in "sandbox"' -l 'seed' -x -d 'seed of the demo data (default 1, or one of the account\'s own); another seed is another state (0..2147483647)'
complete -c mon -n '__mon_in "sandbox"' -l 'rate-limit' -x -d 'requests each key may send per S seconds (default 400/60, as the API)'
complete -c mon -n '__mon_in "sandbox"' -l 'tls' -d 'serve HTTPS, with a certificate of a local CA made once in the config folder (mon trusts it; the banner says how others can)'
complete -c mon -n '__mon_in "sandbox"' -l 'live' -d 'a living fleet: simulated time passes, computers report, go missing and come back, checks change state, new computers enrol (kept in memory)'
complete -c mon -n '__mon_in "sandbox"' -l 'speed' -x -d 'with --live: simulated seconds per real second (60: an hour a minute) (1..86400, default: 60)'
complete -c mon -n '__mon_in "sandbox"' -l 'webhook' -x -d 'POST each plugin result\'s change of state to this address as JSON (repeatable) (max 2048 characters)'
complete -c mon -n '__mon_at "sandbox"' -a 'serve' -d 'Run the sandbox in the foreground until Ctrl-C; prints its base URL and key'
complete -c mon -n '__mon_at "sandbox"' -a 'trigger' -d 'Make a running sandbox send a test delivery, move its clock or force a change'
complete -c mon -n '__mon_at "sandbox"' -a 'reset' -d 'Restore the demo data: forget every change made in the sandbox (the default data, the data named, or --all)'
complete -c mon -n '__mon_in "sandbox reset"' -l 'all' -d 'every sandbox state: each account, size and seed'
complete -c mon -n '__mon_at "completion"' -a 'bash' -d 'Print the bash completion script'
complete -c mon -n '__mon_at "completion"' -a 'zsh' -d 'Print the zsh completion script'
complete -c mon -n '__mon_at "completion"' -a 'fish' -d 'Print the fish completion script'
complete -c mon -n '__mon_arg "help" 1 +' -a 'groups computers expirations expiration-manufacturers expiration-products notes plugin users alerts status metrics report history events changes api profile sandbox completion help options environment exit-codes formats fleet events sandbox'
