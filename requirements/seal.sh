#!/usr/bin/env bash
# The seal of the action's environment (issue 27): what the gate's Python runs from, recorded by
# the set-up step before any test runs and checked by every later step of the action before the
# gate's Python starts. bash and coreutils only: the checker never runs from a tree it checks.
#
#   seal.sh place ORIGIN WORKSPACE COPY     prints the folder the action runs from
#   seal.sh record SEAL PYTHON ACTION ORIGIN SET WORKSPACE MANIFEST POLICY [JOB [INPUT]]
#                                           prints the seal's sha256
#   seal.sh verify SEAL                     exit 2 naming what changed
#   seal.sh later JOB ORIGIN PYTHON SET     a later use of the action in the job: prints the
#                                           action folder, the venv's python to reuse (or an
#                                           empty line) and the sealed base interpreter
#
# ORIGIN is the action's folder as the runner has it (GITHUB_ACTION_PATH). `place` prints it,
# or, when it is the workspace or inside it (`uses: ./`: a test can write it), makes COPY a
# copy of what the gate's Python runs from (action.yml, requirements/, gate/, schemas/; no
# bytecode, no symbolic link) before anything runs, and prints COPY: every later step runs
# the copy, which the seal hashes, and ORIGIN/action.yml (which the runner reads again for a
# later use) is hashed too.
#
# The first use of the action in a job records its seal in the job's environment
# (GITHUB_ENV: AGENT_PATCH_GATE_JOB_SEAL and _SHA256, which a later step's file commands
# cannot change: the stamp step finds any write to them, exit 2, and puts the bytes back). A
# later use's set-up checks that seal (`later`, run from the checked copy in it) before any
# Python runs: unchanged, the same action folder and base interpreter, and reuses the first
# use's venv when it needs the same set (else the caller builds a fresh one in a fresh root);
# its own seal (`record ... JOB`) may then only name roots the first use's did.
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
#   use       origin, action, base (the interpreter's real path), set and python of this use,
#             and input: the real path of the python input as the job's PATH found it (INPUT),
#             which is not the base when it is a wrapper (a pyenv or asdf shim, say)
#   seal.sha256  sha256sum of this script, roots, use, listing and sums; its own sha256 is what
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
  local seal="$1" python="$2" action="$3" origin="$4" set_name="$5" workspace="$6"
  local manifest="$7" policy="$8" job="${9:-}" input="${10:-}"
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
  # binary, and libpython), the action's folder (and ORIGIN/action.yml when the action runs
  # from a copy), the manifest and the policy.
  if ! "$python" -I -B - "$seal" "$action" "$origin" "$set_name" "$workspace" "$manifest" \
    "$policy" > "$seal/roots" <<'PY'
import os, site, sys, sysconfig

seal, action, origin, set_name, workspace, manifest, policy = sys.argv[1:8]
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


add("hash", real(action))
if real(origin) != real(action):  # `uses: ./`, run from a copy: the runner reads this again
    add("hash", os.path.join(real(origin), "action.yml"))
add("list", seal + "/pycache")
for path in (manifest, policy):
    if path:
        named(path)
chain(sys.executable)
base = getattr(sys, "_base_executable", sys.executable)
chain(base)
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
    # pruned whether or not it exists yet: a test may make it and install there (issue 27)
    if not any(k == path or k.startswith(path + "/") for k in kept):
        add("prune", path)
print("\n".join(lines))
with open(os.path.join(seal, "use"), "w", encoding="utf-8") as use:
    use.write(f"origin {real(origin)}\naction {real(action)}\nbase {real(base)}\n"
              f"set {set_name}\npython {os.path.abspath(sys.executable)}\n")
PY
  then
    say "the venv's interpreter could not list what the gate's Python runs from (its own lines above say why)"
    exit 2
  fi
  if [ -n "$input" ]; then
    input="$(realpath -e -- "$input")"
    case "$input" in *$'\n'*|*$'\r'*)
      say "$(printf '%q' "$input"): a line break in the python input's path; install the interpreter elsewhere"
      exit 2 ;;
    esac
    printf 'input %s\n' "$input" >> "$seal/use"
  fi
  [ -z "$job" ] || within_first "$seal" "$python" "$job"
  walk "$seal" "$seal/listing" "$seal/files"
  (cd "$seal" && sort -z files | xargs -0 -r sha256sum -- > sums && rm files \
    && sha256sum -- seal.sh roots use listing sums > seal.sha256)
  sha256sum -- "$seal/seal.sha256" | cut -d' ' -f1
}

# A later use's roots are the first use's (JOB), but for its own bytecode link and, when it
# built a fresh venv, that venv: anything else (another manifest, policy or interpreter) was
# not sealed before the first use's tests ran, which could have written it.
within_first() {
  local seal="$1" python="$2" job="$3" kind path
  local venv first
  venv="$(dirname -- "$(dirname -- "$python")")"
  first="$(sed -n 's/^python //p' "$job/use")"
  first="$(dirname -- "$(dirname -- "$first")")"
  while IFS=' ' read -r kind path; do
    [ "$path" != "$seal/pycache" ] || continue
    if [ "$venv" != "$first" ]; then
      case "$path/" in "$venv"/*) continue ;; esac
    fi
    if ! grep -Fxq -- "$kind $path" "$job/roots"; then
      say "$(printf '%q' "$path") was not sealed by the first use of the action in this job ($(printf '%q' "$job"), made before its tests ran, which could have written it); fix: give every use of the action in a job the same python, manifest and policy, or use it once per job (stamp and decide in separate jobs)"
      exit 2
    fi
  done < "$seal/roots"
}

# The folder the action runs from: ORIGIN, or a fresh copy of it when it is in the workspace.
place() {
  local origin="$1" workspace="$2" copy="$3" real_origin real_workspace
  real_origin="$(realpath -e -- "$origin")"
  real_workspace=""
  [ -z "$workspace" ] || real_workspace="$(realpath -m -- "$workspace")"
  case "$real_origin/" in
    "${real_workspace:-/nonexistent/}"/*) ;;
    *) printf '%s\n' "$real_origin"; return ;;
  esac
  rm -rf -- "$copy"
  mkdir -m 700 -- "$copy"
  local part
  for part in action.yml requirements gate schemas; do
    if [ -e "$real_origin/$part" ]; then
      cp -R --no-preserve=ownership -- "$real_origin/$part" "$copy/$part"
    fi
  done
  find "$copy" -name __pycache__ -prune -exec rm -rf -- {} +
  local link
  link="$(find "$copy" -type l -print -quit)"
  if [ -n "$link" ]; then
    say "$(printf '%q' "$real_origin${link#"$copy"}"): a symbolic link in the action's folder, which is in the workspace (uses: ./): the copy the action runs from holds regular files only; replace the link by the file"
    exit 2
  fi
  printf '%s\n' "$copy"
}

# A later use of the action in the job: JOB (the first use's seal, its digest checked by the
# caller) unchanged, this use's action folder and interpreter the first use's; prints the
# action folder to run from, then the venv's python when SET is the first use's (else an empty
# line), then the sealed base interpreter, which the caller builds a fresh venv with: the
# python input may be a wrapper (a pyenv or asdf shim) whose real path the first use recorded
# as its input, a file no seal covers, which is compared here and never run.
later() {
  local job="$1" origin="$2" python="$3" set_name="$4" found real
  verify "$job" "after the first use of the action in this job sealed it"
  if [ "$(realpath -e -- "$origin")" != "$(sed -n 's/^origin //p' "$job/use")" ]; then
    say "$(printf '%q' "$origin"): another version of the action than the one used first in this job ($(sed -n 's/^origin //p' "$job/use" | head -c 300)): its folder was not sealed before that use's tests ran, which could have written it; fix: use one version of the action in a job, or use it in separate jobs"
    exit 2
  fi
  found="$(command -v -- "$python" || true)"
  real=""
  [ -z "$found" ] || real="$(realpath -e -- "$found")"
  if [ -z "$real" ] || { [ "$real" != "$(sed -n 's/^base //p' "$job/use")" ] \
      && [ "$real" != "$(sed -n 's/^input //p' "$job/use")" ]; }; then
    say "the python input ($(printf '%q' "$python")) is not the interpreter the first use of the action in this job sealed ($(sed -n 's/^base //p' "$job/use" | head -c 300)); fix: give every use of the action in a job the same python, or use it in separate jobs"
    exit 2
  fi
  sed -n 's/^action //p' "$job/use"
  if [ "$(sed -n 's/^set //p' "$job/use")" = "$set_name" ]; then
    sed -n 's/^python //p' "$job/use"
  else
    echo
  fi
  sed -n 's/^base //p' "$job/use"
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
  local seal="$1" when="${2:-after the set-up step}" now
  now="$(mktemp "$seal/listing.XXXXXXXX")"
  walk "$seal" "$now"
  if ! cmp -s -- "$seal/listing" "$now"; then
    local what
    what="$(first_difference "$seal/listing" "$now")"
    rm -f -- "$now"
    say "$what $when: a test step changed the action's environment (the action's folder, its venv, the interpreter it was built from, the manifest or the policy); refusing to run the gate's Python"
    exit 2
  fi
  rm -f -- "$now"
  local failed
  if ! failed="$(cd "$seal" && sha256sum --check --strict --quiet sums 2>&1)"; then
    failed="$(head -n1 <<< "$failed")"
    say "$(printf '%q' "${failed%: *}")'s content was changed $when: a test step changed the action's environment; refusing to run the gate's Python"
    exit 2
  fi
}

case "${1:-}" in
  place) shift; place "$@" ;;
  record) shift; record "$@" ;;
  verify) shift; verify "$@" ;;
  later) shift; later "$@" ;;
  *) say "usage: seal.sh place ORIGIN WORKSPACE COPY | record SEAL PYTHON ACTION ORIGIN SET WORKSPACE MANIFEST POLICY [JOB] | verify SEAL | later JOB ORIGIN PYTHON SET"; exit 2 ;;
esac
