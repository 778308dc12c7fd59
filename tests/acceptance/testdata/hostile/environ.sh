#!/bin/sh
# Looks for the grader's secret variable, then starts a correct server.
env | grep -q '^PN_GRADER_TOKEN=' && echo "PWNED saw PN_GRADER_TOKEN"
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
