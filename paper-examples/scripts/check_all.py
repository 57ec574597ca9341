"""Runs every seed script; with --check (the default here) verifies the committed expected files.

Usage: python3 paper-examples/scripts/check_all.py [--write]
"""

import os
import subprocess
import sys

SCRIPTS = ["seed000.py", "seed001.py", "seed002.py", "seed003.py", "seed004.py", "make_readme.py", "tail_model.py"]

here = os.path.dirname(os.path.abspath(__file__))
args = [] if "--write" in sys.argv[1:] else ["--check"]
status = 0
for script in SCRIPTS:
    rc = subprocess.call([sys.executable, os.path.join(here, script)] + args)
    status = status or rc
sys.exit(status)
