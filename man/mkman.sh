#!/bin/sh
# Write a section-1 man page from `loadgen [SUBCOMMAND] --help` with help2man, so the
# page's options are the binary's options (tests/integration/test_manpages.py checks it).
#
# Usage: mkman.sh HELP2MAN LOADGEN SUBCOMMAND VERSION SUMMARY INCLUDE OUTPUT [FALLBACK]
#   SUBCOMMAND  "" for loadgen itself, else e.g. "compare" (the page is loadgen-compare)
#   INCLUDE     help2man include file: the sections --help does not hold (FILES, EXAMPLES..)
#   FALLBACK    help text to use while the binary does not have SUBCOMMAND yet
#
# The help text is fed to help2man through a small wrapper that makes the extra usage
# lines ("       loadgen compare ...") help2man's "   or: ..." form and joins continued
# ones, so they land in the SYNOPSIS, not in the DESCRIPTION.
set -eu
[ $# -ge 7 ] || { echo "usage: $0 HELP2MAN LOADGEN SUBCOMMAND VERSION SUMMARY INCLUDE OUTPUT [FALLBACK]" >&2; exit 2; }
help2man=$1 loadgen=$2 sub=$3 version=$4 summary=$5 include=$6 output=$7 fallback=${8:-}
name=loadgen${sub:+-$sub}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # $sub is one word or none
# A binary without SUBCOMMAND may print its main help instead: check the usage line.
if "$loadgen" $sub --help >"$tmp/help" 2>"$tmp/err" &&
	head -n 1 "$tmp/help" | grep -q "^Usage: loadgen ${sub:+$sub }"; then
	:
elif [ -n "$fallback" ]; then
	cp "$fallback" "$tmp/help"
else
	echo "$0: '$loadgen${sub:+ $sub} --help' failed:" >&2
	cat "$tmp/err" >&2
	exit 1
fi
# A usage line continued on indented lines (loadgen ab's) is joined into one, so the whole
# synopsis stays in SYNOPSIS: help2man would start DESCRIPTION at the first continuation.
awk 'function flush() { if (line != "") print line; line = "" }
     NR == 1 && /^Usage:/ { usage = 1; line = $0; next }
     usage && /^ +loadgen / { flush(); line = $0; sub(/^ +/, "   or: ", line); next }
     usage && /^ +[^ ]/ { sub(/^ +/, " "); line = line $0; next }
     { usage = 0; flush(); print }
     END { flush() }' "$tmp/help" >"$tmp/help.txt"
cat >"$tmp/$name" <<WRAP
#!/bin/sh
cat '$tmp/help.txt'
WRAP
chmod +x "$tmp/$name"
"$help2man" --no-info --no-discard-stderr --section=1 --name="$summary" \
	--version-string="$name $version" --include="$include" \
	--manual="loadgen manual" --source="loadgen $version" \
	--output="$tmp/page" "$tmp/$name"
# Each synopsis item as .SY/.YS (groff's an-ext, mandoc too): a long one wraps with a
# hanging indent under its first argument instead of looking like the next item.
awk '/^\.SH / { if (syn) print ".YS"; syn = ($0 == ".SH SYNOPSIS") }
     syn && /^\.B loadgen$/ { print ".SY loadgen"; next }
     syn && /^\.br$/ { next }
     { print }' "$tmp/page" >"$output.tmp"
mv "$output.tmp" "$output"
