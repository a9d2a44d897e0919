#!/usr/bin/env python3
"""Every `import` of one of the package's own modules names a target the importing target
depends on in Package.swift; and the modules an app imports (the client, AVFAudio,
AVFoundation, AVKit, MediaPlayer) re-export none of the engine's (docs/modules.md): an app sees the
AVAudioSession API, not `Engine` or `Command`.

A debug build finds any module already built in .build (implicit module visibility), so a
missing dependency compiles there and fails only in a release build; this check fails at once.
Usage: scripts/check-imports.py  (run from the repository root; `make check-layers` runs it)
"""
import json
import os
import re
import subprocess
import sys

package = json.loads(subprocess.run(
    ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in package["targets"]}
own = set(targets)
# Modules apps import, and the package's own modules they may re-export (`@_exported`).
app_facing = {"AudioSessionClient": set(), "AVFAudio": {"AudioSessionClient"},
              "AVFoundation": {"AVFAudio"}, "AVKit": {"AVFoundation"},
              "MediaPlayer": {"AVFAudio"}}
imported = re.compile(r"^\s*(?:@testable\s+|@_exported\s+)?(?:public\s+|package\s+|internal\s+)?"
                      r"import\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")
problems = []
for name, target in targets.items():
    if target["type"] == "system":
        continue
    default = {"regular": "Sources", "executable": "Sources", "test": "Tests"}[target["type"]]
    path = target.get("path") or os.path.join(default, name)
    declared = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    for folder, _, files in os.walk(path):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            source = os.path.join(folder, file)
            with open(source, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    match = imported.match(line)
                    if match and match.group(1) in own and match.group(1) not in declared:
                        problems.append(
                            f"{source}:{number}: imports {match.group(1)}, which target {name} "
                            f"does not depend on in Package.swift; add it there or drop the import")
                    if (match and "@_exported" in line and name in app_facing
                            and match.group(1) in own
                            and match.group(1) not in app_facing[name]):
                        allowed = ", ".join(sorted(app_facing[name])) or "none of the package's"
                        problems.append(
                            f"{source}:{number}: {name} re-exports {match.group(1)}, but apps "
                            f"import {name} (it may re-export {allowed} modules; "
                            f"docs/modules.md): import it without @_exported")
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)
