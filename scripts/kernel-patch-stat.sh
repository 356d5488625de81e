#!/bin/bash
# kernel-patch-stat.sh PATCH...: rewrite the diffstat of each patch mail in
# kernel/patches from its diff (after a hunk was edited by hand).
set -euo pipefail
for p in "$@"; do
	python3 - "$p" <<'PY'
import subprocess, sys
path = sys.argv[1]
text = open(path).read()
i = text.index('\n---\n') + 5
j = text.index('diff --git', i)
stat = subprocess.run(['git', 'apply', '--stat'], input=text[j:], capture_output=True,
                      text=True, check=True).stdout
open(path, 'w').write(text[:i] + stat + '\n' + text[j:])
PY
done
