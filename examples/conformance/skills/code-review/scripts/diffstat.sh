#!/bin/sh
# Prints the files a change touches and how much.
git diff --stat "${1:-HEAD}"
