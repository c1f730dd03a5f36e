# Completes one command line in a real interactive zsh and writes what it offers, one a line,
# to a file: zsh -f zsh-capture.zsh <dir holding _mon> <output file> <command line> <compinit dump>
# The dump is written by the first run that finds none (compinit reads every function on fpath,
# about a second); later runs load it as it is (-C).
# zsh only completes inside the line editor, so the line is typed into a zsh on a pseudo
# terminal (zpty) and followed by Tab; compadd is wrapped to record the matches it adds.
zmodload zsh/zpty || exit 3
local dir=$1 out=$2 line=$3 dump=$4 chunk i
: >| $out
zpty mon_capture zsh -f -i
zpty -w mon_capture "PROMPT= RPROMPT=; fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -C -d ${(q)dump}"
zpty -w mon_capture "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -O hits \"\$@\"; (( \$#hits )) && print -rl -- \$hits >> ${(q)out}; builtin compadd \"\$@\"; }"
zpty -w mon_capture "comppostfuncs=(mon_capture_done); mon_capture_done() { print -r -- '<done>' >> ${(q)out}; }"
zpty -w mon_capture "bindkey '^I' complete-word"
zpty -w mon_capture "$line"$'\t'
for i in {1..300}; do
  # Drain the terminal so that a long listing never blocks the shell.
  while zpty -rt mon_capture chunk 2>/dev/null; do :; done
  grep -q '^<done>$' $out 2>/dev/null && break
  sleep 0.05
done
zpty -d mon_capture
grep -q '^<done>$' $out || { print -u2 "zsh-capture: no completion within 15 s"; exit 4 }
