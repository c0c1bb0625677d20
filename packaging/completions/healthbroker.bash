# bash completion for healthbrokerd, healthctl and healthload (installed under each name).
#
# Reads the words to offer from the program's own --help (and a subcommand's), so it never goes
# stale: the SUBCOMMANDS section gives subcommands, the OPTIONS section gives flags, and a flag whose
# value is PATH, FILE or DIR completes file names.

_healthbroker_help_words() {
  # $1: the help text. Prints flags, then (after a line "--") subcommands.
  awk '
    /^[A-Z][A-Z ]*:$/ { section = $0; next }
    section == "OPTIONS:" && match($0, /^ +(-[a-z], )?--[a-z0-9-]+/) {
      text = substr($0, RSTART, RLENGTH); sub(/^ +(-[a-z], )?/, "", text); flags = flags " " text
    }
    section == "SUBCOMMANDS:" && match($0, /^  [a-z][a-z0-9-]*/) {
      text = substr($0, RSTART, RLENGTH); sub(/^ +/, "", text); subs = subs " " text
    }
    END { print flags; print "--"; print subs }
  ' <<<"$1"
}

_healthbroker_complete() {
  local program=$1 current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]}
  local -a path=("${COMP_WORDS[0]}")
  local word index
  # The subcommand chain typed so far: words that are not flags or flag values.
  for ((index = 1; index < COMP_CWORD; index++)); do
    word=${COMP_WORDS[index]}
    [[ $word == -* ]] && continue
    path+=("$word")
  done
  local help
  help=$("${path[@]}" --help 2>/dev/null) || help=$("${COMP_WORDS[0]}" --help 2>/dev/null)
  if grep -Eq -- "^ +(-[a-z], )?$previous (PATH|FILE|DIR)\b" <<<"$help"; then
    COMPREPLY=($(compgen -f -- "$current"))
    return
  fi
  local words flags subs
  words=$(_healthbroker_help_words "$help")
  flags=$(sed -n '1p' <<<"$words")
  subs=$(sed -n '3p' <<<"$words")
  if [[ $current == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$current"))
  else
    COMPREPLY=($(compgen -W "$subs" -- "$current"))
  fi
}

complete -F _healthbroker_complete healthbrokerd healthctl healthload
