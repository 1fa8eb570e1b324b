// Package action holds the steps of the repository's GitHub Action
// (action.yml at the root): action.sh, a bash script with one subcommand
// per step, and the tests that run it as the runner would, with the real
// trainreport binary, GitHub's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// GITHUB_EVENT_PATH) in a temporary folder, and a stub gh that records
// what the comment step asks of GitHub's API.
package action
