#!/bin/sh
# The source tree's files as a tar stream on standard output, for a scratch copy (mutation
# testing, the QEMU and Xen vperf mutants):
#   tree-files.sh SRCTREE | (cd DEST && tar xf -)
# In a git checkout: git's list of tracked and new, not ignored files (the working copy as it
# is). In an exported tree (git archive, as make check-fresh runs it; git may not even be
# installed): every file but the build output, the same set .gitignore leaves out.
set -eu
src=$1
cd "$src"
if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard -z | xargs -0 tar cf -
else
	find . \( -name .git -o -path ./build -o -path '*/include/generated' \) -prune -o \
		-type f ! -name '*.o' ! -name '*.d' ! -name .config -print0 | xargs -0 tar cf -
fi
