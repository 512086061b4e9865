#!/usr/bin/env bash
# The seal of the action's environment (issue 27): what the gate's Python runs from, recorded by
# the set-up step before any test runs and checked by every later step of the action before the
# gate's Python starts. bash and coreutils only: the checker never runs from a tree it checks.
#
#   seal.sh record SEAL PYTHON ACTION WORKSPACE MANIFEST POLICY   prints the seal's sha256
#   seal.sh verify SEAL                                            exit 2 naming what changed
#
# SEAL is a fresh folder outside the workspace. `record` copies this script into it, links
# SEAL/pycache to the venv's bytecode folder (written when the venv was built, in its manifest:
# the gate's steps run with -B -X pycache_prefix=SEAL/pycache, so they read no __pycache__ of
# any source tree, which a test can write), runs the venv's PYTHON once (-I) to print the
# roots, and writes:
#   roots     one `hash PATH` or `list PATH` or `prune PATH` per line (seal_roots below)
#   listing   every entry under every root, `find -printf`, NUL-separated, sorted: a folder's
#             type, mode, inode; a link's inode and target; a file's type, mode, inode, size,
#             modification and change times (ns): a write, a rename over it or a replacement
#             changes the change time, which no unprivileged process can set back. A root that
#             does not exist is `absent PATH` (created later: a difference).
#   sums      sha256sum of every file under the `hash` roots (the action's folder, the base
#             interpreter's binary and libpython, the manifest and the policy)
#   seal.sha256  sha256sum of this script, roots, listing and sums; its own sha256 is what
#             `record` prints: the set-up step's output, which no later step can change.
# The caller of `verify` first checks seal.sha256 against that output and the four files
# against seal.sha256 (action.yml), then runs the checked copy of this script.
set -euo pipefail
export LC_ALL=C

say() {
  # one stderr line; a path is quoted by printf %q, so no control character starts a line
  printf 'agent-patch gate: %s\n' "$1" >&2
}

# The find expression for one root: __pycache__ folders are skipped (the gate's steps never
# read them: -X pycache_prefix), and so is each `prune` path (a site-packages folder inside the
# standard library's folder, which the venv's interpreter does not search).
listing_of() {
  local root="$1"; shift
  if [ ! -e "$root" ] && [ ! -L "$root" ]; then
    printf 'absent %s\0' "$root"
    return
  fi
  local skip=(-name __pycache__)
  local p
  for p in "$@"; do skip+=(-o -path "$p"); done
  find "$root" \( "${skip[@]}" \) -prune -o \
    \( -type d -printf 'd %m %i %p\0' \) -o \
    \( -type l -printf 'l %i %p -> %l\0' \) -o \
    -printf '%y %m %i %s %T@ %C@ %p\0' | sort -z
}

files_of() {
  local root="$1"; shift
  [ -e "$root" ] || return 0
  local skip=(-name __pycache__)
  local p
  for p in "$@"; do skip+=(-o -path "$p"); done
  find "$root" \( "${skip[@]}" \) -prune -o -type f -print0
}

# Reads SEAL/roots; writes the listing to $2 and, when $3 is given, the file list for sums.
walk() {
  local seal="$1" listing="$2" files="${3:-}"
  local kind path
  local roots=() kinds=() prunes=()
  while IFS=' ' read -r kind path; do
    case "$kind" in
      hash|list) kinds+=("$kind"); roots+=("$path") ;;
      prune) prunes+=("$path") ;;
      *) say "$(printf '%q' "$seal/roots"): unknown line kind $(printf '%q' "$kind")"; exit 2 ;;
    esac
  done < "$seal/roots"
  local i
  : > "$listing"
  [ -z "$files" ] || : > "$files"
  for i in "${!roots[@]}"; do
    listing_of "${roots[$i]}" "${prunes[@]}" >> "$listing"
    if [ -n "$files" ] && [ "${kinds[$i]}" = hash ]; then
      files_of "${roots[$i]}" "${prunes[@]}" >> "$files"
    fi
  done
}

record() {
  local seal="$1" python="$2" action="$3" workspace="$4" manifest="$5" policy="$6"
  # GNU find (-printf) and coreutils (sha256sum --strict, sort -z): Linux runners have them;
  # on macOS, Homebrew's findutils and coreutils with their gnubin folders first on PATH.
  if ! find "$seal" -maxdepth 0 -printf '' 2>/dev/null || ! command -v sha256sum >/dev/null; then
    say "the seal of the action's environment needs GNU find (-printf) and coreutils' sha256sum; on macOS: brew install findutils coreutils and put their gnubin folders first on PATH"
    exit 2
  fi
  install -m 600 -- "$0" "$seal/seal.sh"
  # The bytecode the steps read (-B -X pycache_prefix=SEAL/pycache): the venv's own, written
  # when it was built (requirements/installer.py, warm) and in its manifest.
  ln -s -- "$(dirname -- "$(dirname -- "$python")")/.gate-pycache" "$seal/pycache"
  # The roots, from the venv's interpreter as the gate's steps run it (-I): its search path,
  # the venv (its bytecode folder in it), the base interpreter (each link on the way to the
  # binary, and libpython), the action's folder, the manifest and the policy.
  if ! "$python" -I -B - "$seal" "$action" "$workspace" "$manifest" "$policy" \
    > "$seal/roots" <<'PY'
import os, site, sys, sysconfig

seal, action, workspace, manifest, policy = sys.argv[1:6]
real = os.path.realpath
lines = []


def add(kind, path):
    path = os.path.abspath(path)
    if "\n" in path or "\r" in path or any(c in path for c in "*?[]\\"):
        sys.exit(f"agent-patch gate: {path!r}: a line break or a pattern character in a path "
                 "the seal records; install the interpreter and the action elsewhere")
    lines.append(f"{kind} {path}")


def chain(path):
    """Each link on the way to ``path``'s target, then the target (hashed)."""
    seen = 0
    while os.path.islink(path) and seen < 40:
        add("list", path)
        path = os.path.join(os.path.dirname(path), os.readlink(path))
        seen += 1
    add("hash", real(path))


def named(path):
    """A file the steps read by its name (the manifest, the policy: the pull request's, which
    may be links): each link on the way listed (a folder's or the file's), the file hashed."""
    path = os.path.abspath(path)
    parts = path.split("/")
    for end in range(2, len(parts)):
        if os.path.islink("/".join(parts[:end])):
            add("list", "/".join(parts[:end]))
    chain(path)


inside = bool(workspace) and (real(action) + "/").startswith(real(workspace).rstrip("/") + "/")
# inside: `uses: ./`, the action's files are the pull request's own (docs/threat-model.md)
if not inside:
    add("hash", real(action))
add("list", seal + "/pycache")
for path in (manifest, policy):
    if path:
        named(path)
chain(sys.executable)
chain(getattr(sys, "_base_executable", sys.executable))
if sysconfig.get_config_var("Py_ENABLE_SHARED"):
    libdir, name = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LDLIBRARY")
    if libdir and name and os.path.lexists(os.path.join(libdir, name)):
        chain(os.path.join(libdir, name))
tops = [sys.prefix, *sys.path, *site.getsitepackages()]
stdlib = sysconfig.get_paths()["stdlib"]
kept = []
for top in sorted({real(t) if os.path.exists(t) else os.path.abspath(t) for t in tops if t}):
    if not any(top == k or top.startswith(k.rstrip("/") + "/") for k in kept):
        if not (top == real(action) or top.startswith(real(action) + "/")):
            kept.append(top)
            add("list", top)
for name in ("site-packages", "dist-packages"):
    path = os.path.join(real(stdlib), name)
    if os.path.isdir(path) and not any(k == path or k.startswith(path + "/") for k in kept):
        add("prune", path)
print("\n".join(lines))
PY
  then
    say "the venv's interpreter could not list what the gate's Python runs from (its own lines above say why)"
    exit 2
  fi
  walk "$seal" "$seal/listing" "$seal/files"
  (cd "$seal" && sort -z files | xargs -0 -r sha256sum -- > sums && rm files \
    && sha256sum -- seal.sh roots listing sums > seal.sha256)
  sha256sum -- "$seal/seal.sha256" | cut -d' ' -f1
}

# The first path of two NUL-separated sorted listings that differs, and how.
first_difference() {
  local want="$1" have="$2" line
  line="$(diff <(tr '\0' '\n' < "$want") <(tr '\0' '\n' < "$have") | grep -m1 '^[<>] ' || true)"
  local side="${line:0:1}" entry="${line:2}" path
  case "$entry" in
    absent\ *) path="${entry#absent }" ;;
    d\ *) path="$(cut -d' ' -f4- <<< "$entry")" ;;
    l\ *) path="$(cut -d' ' -f3- <<< "$entry")"; path="${path%% -> *}" ;;
    *) path="$(cut -d' ' -f7- <<< "$entry")" ;;
  esac
  if [ "$side" = ">" ]; then
    printf '%q was %s' "$path" "$([ "${entry%% *}" = absent ] && echo removed || echo "added or changed")"
  else
    printf '%q was %s' "$path" "removed or changed"
  fi
}

verify() {
  local seal="$1" now
  now="$(mktemp "$seal/listing.XXXXXXXX")"
  walk "$seal" "$now"
  if ! cmp -s -- "$seal/listing" "$now"; then
    local what
    what="$(first_difference "$seal/listing" "$now")"
    rm -f -- "$now"
    say "$what after the set-up step: a test step changed the action's environment (the action's folder, its venv, the interpreter it was built from, the manifest or the policy); refusing to run the gate's Python"
    exit 2
  fi
  rm -f -- "$now"
  local failed
  if ! failed="$(cd "$seal" && sha256sum --check --strict --quiet sums 2>&1)"; then
    failed="$(head -n1 <<< "$failed")"
    say "$(printf '%q' "${failed%: *}")'s content was changed after the set-up step: a test step changed the action's environment; refusing to run the gate's Python"
    exit 2
  fi
}

case "${1:-}" in
  record) shift; record "$@" ;;
  verify) shift; verify "$@" ;;
  *) say "usage: seal.sh record SEAL PYTHON ACTION WORKSPACE MANIFEST POLICY | verify SEAL"; exit 2 ;;
esac
