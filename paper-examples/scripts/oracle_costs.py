#!/usr/bin/env python3
"""Rewrites oracle-costs.csv from an oracle conformance report, then the README table.

These figures are measurements of the FCL oracle (cost = parallel steps on the machine, work =
thread-level steps), not expected values, so they come from tailfcl itself:

    tailfcl conform paper-examples --engines oracle --report /tmp/oracle.csv
    python3 paper-examples/scripts/oracle_costs.py /tmp/oracle.csv

The root test `oracle_costs_in_the_readme_are_current` fails when they drift.
"""
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def machine_of(test):
    path = os.path.join(ROOT, test + ".machine")
    return open(path).read().strip() if os.path.exists(path) else "2x4"


def main(report):
    rows = [r for r in csv.DictReader(open(report)) if r["engine"] == "oracle"]
    out = ["test,machine,steps,cost,work,result"]
    for r in sorted(rows, key=lambda r: r["test"]):
        if not os.path.exists(os.path.join(ROOT, r["test"] + ".fcl")):
            continue
        result = "expected error class" if os.path.exists(
            os.path.join(ROOT, r["test"] + ".expected-error")) else "expected output"
        out.append(",".join([r["test"], machine_of(r["test"]), r["steps"], r["cost"], r["work"], result]))
    with open(os.path.join(HERE, "oracle-costs.csv"), "w") as f:
        f.write("\n".join(out) + "\n")
    subprocess.run([sys.executable, os.path.join(HERE, "make_readme.py")], check=True)


if __name__ == "__main__":
    main(sys.argv[1])
