# bash completion for port-kernel.
# Generated from the option definitions by `port-kernel --help-markdown=bash`:
# do not edit; the test gate.docs_bash fails when this file and the options differ.
_port_kernel() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}
  local cmd= i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      check|explain|merge-reports|port|report|rules|validate) cmd=${COMP_WORDS[i]}; break ;;
    esac
  done
  COMPREPLY=()
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W '--help --version' -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -W 'check explain merge-reports port report rules validate' -- "$cur")
    fi
    return 0
  fi
  # The option whose value is being completed: --opt=VALUE is split at '='.
  local opt= val=$cur
  if [[ $cur == = ]]; then
    opt=$prev val=
  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
    opt=${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $cur == --*=* ]]; then
    opt=${cur%%=*} val=${cur#*=}
  elif [[ $prev == -? ]]; then
    opt=$prev
  fi
  local opts= values= takes=
  case $cmd in
    check)
      opts='--baseline= --checks= --config= --config-file= --cuda-path= --depfile= --dump-config= --extra-arg= --extra-arg-before= --format= -j --lds-padding= --max-macro-depth= --mfma-shape= --output= -p -q --rocm-version= --rules= --rules-uri-base= --shard= --src-root= --strict --stub-missing-includes --to= --update-baseline -v --validate --warnings-as-errors= --wave64= --help'
      takes=' --baseline --checks --config --config-file --cuda-path --depfile --dump-config --extra-arg --extra-arg-before --format -j --lds-padding --max-macro-depth --mfma-shape --output -p --rocm-version --rules --rules-uri-base --shard --src-root --to --warnings-as-errors --wave64 '
      case $opt in
        --format) values='text json sarif' ;;
        --lds-padding) values='auto always keep' ;;
        --mfma-shape) values='auto 16x16x16 32x32x8' ;;
        --wave64) values='auto logical32 native' ;;
      esac
      ;;
    explain)
      opts='--help'
      takes='  '
      ;;
    merge-reports)
      opts='--rules-uri-base= --help'
      takes=' --rules-uri-base '
      ;;
    port)
      opts='--checks= --config= --config-file= --cuda-path= --depfile= --dump-config= --extra-arg= --extra-arg-before= --in-place -j --lds-padding= --max-macro-depth= --mfma-shape= -o -p -q --report= --rocm-version= --rules= --shard= --strict --stub-missing-includes --to= -v --warnings-as-errors= --wave64= --help'
      takes=' --checks --config --config-file --cuda-path --depfile --dump-config --extra-arg --extra-arg-before -j --lds-padding --max-macro-depth --mfma-shape -o -p --report --rocm-version --rules --shard --to --warnings-as-errors --wave64 '
      case $opt in
        --lds-padding) values='auto always keep' ;;
        --mfma-shape) values='auto 16x16x16 32x32x8' ;;
        --wave64) values='auto logical32 native' ;;
      esac
      ;;
    report)
      opts='--cuda-path= --extra-arg= --extra-arg-before= -j --lds-padding= --markdown= --max-macro-depth= --mfma-shape= -o -p --patch-dir= --rocm-version= --rules= --stub-missing-includes --to= -v --validate --wave64= --help'
      takes=' --cuda-path --extra-arg --extra-arg-before -j --lds-padding --markdown --max-macro-depth --mfma-shape -o -p --patch-dir --rocm-version --rules --to --wave64 '
      case $opt in
        --lds-padding) values='auto always keep' ;;
        --mfma-shape) values='auto 16x16x16 32x32x8' ;;
        --wave64) values='auto logical32 native' ;;
      esac
      ;;
    rules)
      opts='--rules= --help'
      takes=' --rules '
      ;;
    validate)
      opts='--allow= --cache-dir= --cuda-path= --expect-output= --extra-arg= --extra-arg-before= --fail-output= --gpu --gpu-arch= --gpu-batch= --gpu-bundle= --gpu-repeats= --gpu-warmup= --inline-hooks -j --json --keep-work --lanes= --lds-padding= --max-macro-depth= --mfma-shape= --no-replay --nvcc= --output-limit= -p --program= --rocm-version= --stop-at= --timeout= --to= --wave64= --work-dir= --help'
      takes=' --allow --cache-dir --cuda-path --expect-output --extra-arg --extra-arg-before --fail-output --gpu-arch --gpu-batch --gpu-bundle --gpu-repeats --gpu-warmup -j --lanes --lds-padding --max-macro-depth --mfma-shape --nvcc --output-limit -p --program --rocm-version --stop-at --timeout --to --wave64 --work-dir '
      case $opt in
        --lds-padding) values='auto always keep' ;;
        --mfma-shape) values='auto 16x16x16 32x32x8' ;;
        --wave64) values='auto logical32 native' ;;
      esac
      ;;
  esac
  if [[ -n $opt && $takes == *" $opt "* ]]; then
    if [[ -n $values ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$values" -- "$val")
    else
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$val")
    fi
    return 0
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
    return 0
  fi
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  return 0
}
complete -F _port_kernel port-kernel
