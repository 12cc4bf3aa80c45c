#!/bin/sh
# Installs the Debian packages a target needs when they are missing: with
# apt-get when run as root, otherwise it prints the line to run.
# Usage: deps.sh build|check
set -e
need="gcc make pkg-config libgmime-3.0-dev libcurl4-openssl-dev libcjson-dev"
if [ "$1" = check ]; then
	need="$need python3 python3-jsonschema valgrind tmux mutt neomutt aerc mandoc groff-base git git-email libmailtools-perl b4"
	need="$need procmail maildrop fdm public-inbox lei"	# the delivery agents, the list archive and lei (t45, t46)
	need="$need clang libclang-rt-dev"	# the fuzz targets
fi
missing=
for p in $need; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "patchreview: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
	echo "patchreview: missing packages; run: sudo apt-get install$missing" >&2
	exit 1
fi
