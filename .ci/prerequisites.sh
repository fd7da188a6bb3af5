#!/usr/bin/env bash
# The native packages kvfleet's commands use, in one place. The launcher sources this file and calls
# `prerequisites demo` or `prerequisites test`; `.ci/run` only runs `./kvfleet test`.
#   demo: the UCX runtime (libucp, ucx_info), the demo's data path between its two agents;
#   test: the UCX runtime, headers and tools (the struct-layout check compiles against ucp.h with gcc,
#         the engine benchmark compares with ucx_perftest), kcat (reads topics from outside the JVM),
#         Prometheus and headless Chromium (the ops tests scrape and load the dashboard).
# KVFLEET_UCX=off runs without UCX on purpose: the engine does not load its UCX backend, and the UCX
# packages are not asked for. Missing packages are installed when this user can (root, apt-get);
# otherwise the command stops with the one command to run. Not Debian-like (no dpkg): nothing is
# checked, and tests that need an absent tool say SKIPPED.
# Functions only: sourcing this file runs nothing. `bash .ci/prerequisites.sh plan ...` runs `plan`.

# The packages `$1` (demo or test) needs, one line, with UCX off when `$2` is "off".
prerequisites_needed() {
  local ucx=(libucx0 ucx-utils)
  [ "$1" = test ] && ucx=(libucx0 libucx-dev ucx-utils)
  [ "${2:-}" = off ] && ucx=()
  case "$1" in
    demo) echo "${ucx[*]}" ;;
    test) echo "${ucx[*]} kcat gcc prometheus chromium chromium-driver" ;;
    *) echo "prerequisites: no list for '$1' (demo or test)" >&2; return 2 ;;
  esac
}

# What to do about the missing packages `$3...`, for a user with uid `$1` and apt-get present or
# not (`$2`: yes/no): prints `nothing`, `install`, or `stop` (then the caller prints the command).
prerequisites_plan() {
  local uid=$1 apt=$2; shift 2
  if [ "$#" -eq 0 ]; then echo nothing
  elif [ "$uid" -eq 0 ] && [ "$apt" = yes ]; then echo install
  else echo stop
  fi
}

# The packages of `$@` that dpkg does not list as installed.
prerequisites_missing() {
  local p missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  echo "${missing[*]}"
}

# `prerequisites demo|test`: installs or names what is missing; returns 2 when the user must act.
prerequisites() {
  local what=$1 ucx=${KVFLEET_UCX:-on} needed missing plan
  ucx=${ucx,,}
  case "$ucx" in
    on|off) ;;
    *) echo "kvfleet: KVFLEET_UCX=$ucx: say on (the default) or off (run without UCX on purpose)" >&2; return 2 ;;
  esac
  command -v dpkg-query >/dev/null 2>&1 || return 0
  needed=$(prerequisites_needed "$what" "$ucx") || return 2
  # shellcheck disable=SC2086 # word splitting of the package lists is meant
  missing=$(prerequisites_missing $needed)
  local apt=no; command -v apt-get >/dev/null 2>&1 && apt=yes
  # shellcheck disable=SC2086
  plan=$(prerequisites_plan "$(id -u)" "$apt" $missing)
  case "$plan" in
    nothing) return 0 ;;
    install)
      echo "kvfleet: installing what '$what' needs: $missing (apt-get, once)..." >&2
      local start=$SECONDS
      apt-get update -qq >&2 || { echo "kvfleet: apt-get update failed (see above)" >&2; return 2; }
      # shellcheck disable=SC2086
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null \
        || { echo "kvfleet: apt-get install $missing failed (see above)" >&2; return 2; }
      echo "kvfleet: installed $missing in $((SECONDS - start)) s" >&2 ;;
    stop)
      local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo "
      echo "kvfleet: '$what' needs packages that are not installed: $missing" >&2
      if [ "$apt" = yes ]; then
        echo "  run:  ${sudo}apt-get install -y $missing" >&2
      else
        echo "  install them with this system's package manager" >&2
      fi
      case " $missing " in
        *" libucx0 "*|*" ucx-utils "*|*" libucx-dev "*)
          echo "  (or, to run without UCX on purpose, with the host data path only: KVFLEET_UCX=off ./kvfleet $what)" >&2 ;;
      esac
      return 2 ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  cmd=$1; shift
  case "$cmd" in
    needed) prerequisites_needed "$@" ;;
    plan) prerequisites_plan "$@" ;;
    check) prerequisites "$@" ;;
    *) echo "usage: $0 needed demo|test [off] | plan UID yes|no [PACKAGE...] | check demo|test" >&2; exit 2 ;;
  esac
fi
