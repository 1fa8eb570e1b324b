#!/usr/bin/env bash
# action.sh: the steps of the repository's GitHub Action (action.yml at the
# root), one per subcommand, each reading the action's inputs from INPUT_*
# variables and GitHub's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
# GITHUB_EVENT_PATH, GITHUB_PATH) as the runner sets them:
#
#   action.sh install   put trainreport on the PATH: INPUT_VERSION from the
#                       Go module proxy, else one already on the PATH, else
#                       built from the action's own source
#   action.sh report    write the report; outputs site, summary, status;
#                       the job summary; annotations. It never fails the
#                       step, so that the upload and the comment still run:
#                       the verdict step gives the status
#   action.sh comment   create or update the pull request's one trainreport
#                       comment (found by a marker) with gh
#   action.sh verdict   exit with the report's status
#
# Inputs holding several words (INPUT_LOGDIR, INPUT_ARGS) are split as
# xargs splits them: quotes group words, nothing is expanded or run.
set -euo pipefail

marker='<!-- trainreport -->'

# words splits $1 into the array named $2, as xargs does.
words() {
	local -n into=$2
	into=()
	if [ -n "${1//[[:space:]]/}" ]; then
		mapfile -d '' into < <(printf '%s' "$1" | xargs printf '%s\0')
	fi
}

output() { printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"; }

install() {
	if [ -n "${INPUT_VERSION:-}" ]; then
		GOBIN="${RUNNER_TEMP:?}/trainreport-bin" go install "github.com/trainreport/trainreport/cmd/trainreport@${INPUT_VERSION}"
	elif command -v trainreport >/dev/null; then
		echo "using $(command -v trainreport): $(trainreport --version)"
		return
	else
		(cd "${GITHUB_ACTION_PATH:?}" && go build -trimpath -o "${RUNNER_TEMP:?}/trainreport-bin/trainreport" ./cmd/trainreport)
	fi
	echo "${RUNNER_TEMP}/trainreport-bin" >>"${GITHUB_PATH:?}"
}

report() {
	local logdirs args site status
	words "${INPUT_LOGDIR:?the logdir input is required}" logdirs
	words "${INPUT_ARGS:-}" args
	site=${INPUT_OUTPUT:-trainreport-report}
	if [ -n "${INPUT_CHARTS_URL:-}" ]; then
		args+=(--charts-url "$INPUT_CHARTS_URL")
	fi
	if [ "${INPUT_ANNOTATIONS:-true}" = true ]; then
		args+=(--annotations github)
	fi
	status=0
	trainreport -o "$site" "${args[@]}" "${logdirs[@]}" || status=$?
	output status "$status"
	# A gate's failure (3) still wrote the report: it goes to the job
	# summary and the comment like any other.
	if [ -f "$site/summary.md" ]; then
		output site "$site"
		output summary "$site/summary.md"
		if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
			cat "$site/summary.md" >>"$GITHUB_STEP_SUMMARY"
		fi
	fi
}

comment() {
	local number body ids id
	number=$(python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))
print((e.get("pull_request") or e.get("issue") or {}).get("number", ""))' "${GITHUB_EVENT_PATH:?}")
	if [ -z "$number" ]; then
		echo "no pull request in this event (${GITHUB_EVENT_NAME:-unknown}): no comment written"
		return
	fi
	if [ ! -f "${SUMMARY:-}" ]; then
		echo "::warning title=trainreport::no summary.md to comment with: the report was not written"
		return
	fi
	body=${RUNNER_TEMP:-/tmp}/trainreport-comment.md
	{
		echo "$marker"
		cat "$SUMMARY"
		if [ -n "${ARTIFACT_URL:-}" ]; then
			printf '\nThe whole report: [%s](%s) (a zip of the site; open index.html).\n' "${ARTIFACT_NAME:-artifact}" "$ARTIFACT_URL"
		fi
	} >"$body"
	# Every page is read whole (no head in a pipe: under pipefail, gh
	# killed by SIGPIPE on a long listing would fail the step).
	ids=$(gh api --paginate "repos/${GITHUB_REPOSITORY:?}/issues/$number/comments" \
		--jq ".[] | select(.body | startswith(\"$marker\")) | .id")
	id=${ids%%$'\n'*}
	if [ -n "$id" ]; then
		gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$body" >/dev/null
		echo "updated comment $id on #$number"
	else
		gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$number/comments" -F "body=@$body" >/dev/null
		echo "commented on #$number"
	fi
}

verdict() {
	local status=${STATUS:-1}
	case $status in
	0) ;;
	3) echo "::error title=trainreport::a gate failed (exit status 3): see the job summary" ;;
	*) echo "::error title=trainreport::trainreport failed (exit status $status): see the step's log" ;;
	esac
	exit "$status"
}

case ${1:-} in
install | report | comment | verdict) "$1" ;;
*)
	echo "usage: action.sh install|report|comment|verdict" >&2
	exit 2
	;;
esac
