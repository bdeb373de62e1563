#!/usr/bin/env bash
# Build the .deb, install it with apt-get like a user would, and use what it installed:
# `loadgen --run-once -c fileserver 2` from a directory without loadfiles, `man -l` on
# every installed page, the bash completion where bash-completion looks. Checks that the
# package's Depends name the Debian package of every shared library the binary needs
# (computed by dpkg-shlibdeps, not hand-written). Removes the package at the end unless
# KEEP=1. Needs root (apt-get install), dpkg-dev, file, man-db, help2man, pandoc.
#
# Usage: tests/package/check-deb.sh [BUILD_DIR]     (default build-deb; CI: .ci/run)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-deb}
say() { printf 'check-deb: %s\n' "$*"; }
fail() { printf 'check-deb: FAIL: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "check-deb: run as root (it installs the package)" >&2; exit 2; }

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOADGEN_MAN=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
[ -d "$build/man" ] || fail "no man pages built (help2man and pandoc installed?)"
rm -f "$build"/loadgen_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
debs=("$build"/loadgen_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one $build/loadgen_*.deb"
deb=$(realpath "${debs[0]}")
say "built $deb"
dpkg-deb --field "$deb" Package Version Architecture Section Depends Recommends Suggests Maintainer
dpkg-deb --contents "$deb" | awk '{print "  " $6}'

[ "$(dpkg-deb --field "$deb" Section)" = utils ] || fail "Section is not utils"
maintainer=$(dpkg-deb --field "$deb" Maintainer)
[[ $maintainer =~ ^[^\<\>@]+\ \<[^@[:space:]]+@[a-z0-9-]+(\.[a-z0-9-]+)+\>$ && $maintainer != *@localhost* ]] ||
	fail "Maintainer '$maintainer' is not 'Name <user@domain>'"
dpkg-deb --field "$deb" Description | awk 'length($0) > 80 { bad = 1 } END { exit bad }' ||
	fail "a Description line is longer than 80 characters"
# the sentences as one line: dpkg wraps them anywhere
dpkg-deb --field "$deb" Description | tr -s ' \n' '  ' | grep -q 'loadfile\. Every op is timed' ||
	fail "the Description lost its punctuation"
depends=$(dpkg-deb --field "$deb" Depends)
[ -n "$depends" ] || fail "no Depends: dpkg-shlibdeps did not run"

# Install as a user would. --path-include keeps the pages where an image excludes
# /usr/share/man (minimal containers); it changes nothing elsewhere.
apt-get install -y -qq -o Dpkg::Options::=--path-include=/usr/share/man/man1/loadgen* \
	-o Dpkg::Options::=--path-include=/usr/share/man/man5/loadgen* "$deb" >/dev/null
say "installed: $(dpkg-query -W -f '${Package} ${Version} ${Status}' loadgen)"
work=$(mktemp -d)
cleanup() {
	rm -rf "$work"
	if [ "${KEEP:-0}" != 1 ]; then
		apt-get remove -y -qq loadgen >/dev/null && say "removed the package"
	fi
}
trap cleanup EXIT

# Every shared library the binary needs comes from a package named in Depends.
for lib in $(objdump -p /usr/bin/loadgen | awk '/NEEDED/ {print $2}'); do
	# (awk and sed read all of their input: stopping early would leave ldconfig or dpkg
	# to die of SIGPIPE once its output outgrows the pipe, and pipefail makes that fatal)
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && !found {print $NF; found = 1}')
	pkg=$(dpkg -S "$(realpath "$path")" 2>/dev/null | sed -n '1s/:.*//p') ||
		pkg=$(dpkg -S "$path" | sed -n '1s/:.*//p')
	case ", $depends" in
	*", $pkg "* | *", $pkg,"* | *", $pkg") say "needs $lib: $pkg is in Depends" ;;
	*) fail "needs $lib from $pkg, which Depends ($depends) does not name" ;;
	esac
done

# The installed loadgen, from a directory without loadfiles.
[ "$(command -v loadgen)" = /usr/bin/loadgen ] || fail "loadgen in PATH is $(command -v loadgen)"
(cd "$work" && loadgen --run-once -c fileserver 2) || fail "loadgen --run-once -c fileserver 2"
(cd "$work" && loadgen --run-once -q --json r.json -c fileserver.yaml 1 >/dev/null &&
	grep -q '"source": *"/usr/bin/../share/loadgen/loadfiles/fileserver.yaml"' r.json) ||
	fail "-c fileserver.yaml did not use /usr/share/loadgen/loadfiles/fileserver.yaml"
say "loadgen -c fileserver ran the installed loadfile from $work"

# The man pages: installed, found by man, rendered.
for page in man1/loadgen.1 man1/loadgen-compare.1 man1/loadgen-import.1 \
	man1/loadgen-report.1 man1/loadgen-ab.1 man1/loadgen-calibrate.1 man1/loadgen-record.1 \
	man5/loadgen-workload.5; do
	file=/usr/share/man/$page.gz
	[ -f "$file" ] || fail "$file not installed"
	MANWIDTH=80 man --warnings -l "$file" >"$work/page" 2>"$work/err" && [ ! -s "$work/err" ] ||
		fail "man --warnings -l $file: $(cat "$work/err")"
	grep -q '^NAME' "$work/page" && [ "$(wc -l <"$work/page")" -gt 20 ] ||
		fail "man -l $file: no NAME section or too short"
	name=${page#*/}
	[ "$(man -w "${name##*.}" "${name%.*}")" = "$file" ] || fail "man -w ${name%.*} does not find $file"
	say "man -l $file: $(wc -l <"$work/page") lines"
done
MANWIDTH=80 man -l /usr/share/man/man1/loadgen.1.gz | grep -- '--loadfile' >/dev/null ||
	fail "loadgen(1) does not list --loadfile"

# The completion, where bash-completion looks, and working.
dir=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null ||
	echo /usr/share/bash-completion/completions)
[ -f "$dir/loadgen" ] || fail "$dir/loadgen not installed"
if [ -f /usr/share/bash-completion/bash_completion ]; then
	got=$(cd "$work" && bash --norc -c 'source /usr/share/bash-completion/bash_completion
		source '"$dir"'/loadgen
		COMP_WORDS=(loadgen -c file); COMP_CWORD=2; COMP_LINE="loadgen -c file"
		COMP_POINT=${#COMP_LINE}; _loadgen loadgen file -c; echo "${COMPREPLY[*]}"')
	[ "$got" = fileserver ] || fail "completion of 'loadgen -c file' gave '$got'"
	say "completion: 'loadgen -c file' -> $got"
fi
say "ok"
