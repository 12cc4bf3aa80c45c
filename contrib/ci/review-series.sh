#!/bin/sh
# review-series.sh: CI step that reviews the commits of a branch or pull
# request with patchreview as one series, the way the maintainers'
# patchreview will see it once it is mailed (git format-patch --stdout, one
# mail per commit, all in one patchreview run, so each patch is reviewed with
# the others in view), prints the comments under each commit's [n/m], keeps
# the drafts for the job's artifacts (NNNN.draft, one per commit), and fails
# the job on a comment at or above a severity (patchreview --fail-on).
#
# Install: run it from the CI job in a clone with enough history to reach
# the base (e.g. actions/checkout with fetch-depth: 0); it is installed as
# $(PREFIX)/share/patchreview/contrib/ci/review-series.sh, next to
# ../git/git-patchreview, which it runs. Example: contrib/ci/github-actions.yml.
# Expects on PATH: git, patchreview, and POSIX sh (git-patchreview is found
# next to this script, or on PATH).
#
# Usage: review-series.sh [-s SEVERITY] [BASE]
#   -s SEVERITY  the least severity that fails the job: nit (the default),
#                warning or error
#   BASE  the branch the work goes into (default: origin/$GITHUB_BASE_REF in
#         a GitHub pull request, else origin/main); the commits reviewed are
#         those after the merge base, i.e. `git format-patch BASE..`.
# Environment: PATCHREVIEW_DRAFTS  where the drafts go (patchreview-drafts);
#   PATCHREVIEW_ADVISORY=yes  exit 0 even when there are comments;
#   PATCHREVIEW_* settings reach patchreview (PATCHREVIEW_BACKEND=none for
#   the built-in checks only, no model, no secrets needed).
# Exit status: 0 no comments at or above SEVERITY (or advisory); 1 some;
#   2 usage error; 3 git or patchreview failed.
severity=nit
if [ "$1" = -s ]; then
	severity=${2:?-s needs a severity}
	shift 2
fi
base=${1:-${GITHUB_BASE_REF:+origin/$GITHUB_BASE_REF}}
base=${base:-origin/main}
drafts=${PATCHREVIEW_DRAFTS:-patchreview-drafts}

here=$(dirname "$0")
gpr=$here/../git/git-patchreview
[ -x "$gpr" ] || gpr=git-patchreview

mb=$(git merge-base "$base" HEAD) || {
	echo "review-series.sh: no merge base with $base (fetch more history?)" >&2
	exit 3
}
echo "patchreview: reviewing $(git rev-list --count --no-merges "$mb..HEAD") commit(s) on top of $base"
"$gpr" -k "$drafts" -s "$severity" "$mb..HEAD"
status=$?
echo "patchreview: drafts in $drafts"
if [ "$status" -eq 1 ] && [ "${PATCHREVIEW_ADVISORY:-no}" = yes ]; then
	exit 0
fi
exit "$status"
