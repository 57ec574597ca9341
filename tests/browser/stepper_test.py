#!/usr/bin/python3
"""Browser tests of the teaching page (`tailfcl step --format html`), in headless Chromium driven by
Selenium (Debian's chromium, chromium-driver, python3-selenium; installed by scripts/setup).

For every program of examples/teaching/, the page and the JSON trace of the same program are
generated; the page is opened, navigated with the buttons, keys, the jump box, the rule search
and the #step=N fragment, and at each step the rule, the costs so far, the highlighted redex and
(FCL) the machine view are checked against the JSON trace.

usage: stepper_test.py TAILFCL_BINARY OUT_DIR
"""

import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chrome import start_chrome, wait_ready  # noqa: E402  (tests/browser/chrome.py)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def squeeze(s):
    return " ".join(s.split())


def printed_alike(rule):
    """Rules whose trace prints the redex as the page's term shows it (see tests/teaching_cli.rs)."""
    name = rule.split(" ")[1] if " " in rule else ""
    return (name not in ("let", "beta", "alloc", "reshape0", "reduce", "each", "power")
            and not rule.startswith("5.") and not rule.startswith("host"))


def generate(binary, src, out):
    stem = os.path.splitext(os.path.basename(src))[0]
    page = os.path.join(out, stem + ".html")
    subprocess.run([binary, "step", "--format", "html", "-o", page, src], check=True)
    lines = subprocess.run([binary, "step", "--format", "json", src], check=True,
                           capture_output=True, text=True).stdout.splitlines()
    trace = [json.loads(l) for l in lines if l.startswith("{")]
    return page, trace


def text(driver, id_):
    return driver.find_element(By.ID, id_).text


# What the page shows, read in one round trip.
READ = """
const t = (id) => { const e = document.getElementById(id); return e ? e.textContent : null; };
const costs = {};
for (const c of document.querySelectorAll("[id^=cost-]")) costs[c.id.slice(5)] = c.textContent;
return {
  step: t("step-no"), number: t("rule-number"), name: t("rule-name"),
  href: document.getElementById("rule-link").getAttribute("href"),
  result: t("result"), costs: costs,
  marks: [...document.querySelectorAll("#term mark.redex")].map((m) => m.textContent),
  fired: [...document.querySelectorAll("#machine .fired[data-loc]")].map((e) => e.dataset.loc),
  firedList: t("fired-list"),
};
"""


def check_step(driver, trace, n, name):
    """The page shows step n (1-based) as the JSON trace has it."""
    rec = trace[n - 1]
    where = f"{name} step {n}"
    page = driver.execute_script(READ)
    check(page["step"] == str(n), f"{where}: step number {page['step']}")
    rule = page["number"] + " " + page["name"]
    check(rule == rec["rule"], f"{where}: rule {rule!r} != {rec['rule']!r}")
    check(page["href"] == "#rule-" + rec["rule"].split(" ")[0], f"{where}: rule link {page['href']}")
    for cost in [k for k in ("work", "span", "cost") if k in rec]:
        want = sum(r[cost] for r in trace[:n])
        got = page["costs"].get(cost)
        check(got == str(want), f"{where}: {cost} so far {got} != {want}")
    marks = page["marks"]
    check(marks and all(marks), f"{where}: no highlighted redex")
    if marks and printed_alike(rec["rule"]) and "…" not in rec["redex"]:
        check(squeeze(marks[0]) == rec["redex"],
              f"{where}: highlighted {squeeze(marks[0])!r} != redex {rec['redex']!r}")
    check(page["result"] == rec["result"], f"{where}: result {page['result']!r}")
    if "location" in rec:
        fired = set(page["fired"])
        named = set(re.findall(r"((?:Thread|Block)\(\d+\)): ", rec["result"]))
        if named:
            check(named <= fired, f"{where}: machine marks {sorted(fired)}, trace names {sorted(named)}")
        else:
            check(rec["location"] in (page["firedList"] or ""),
                  f"{where}: fired list {page['firedList']!r} lacks {rec['location']}")


def key(driver, k):
    driver.find_element(By.TAG_NAME, "body").send_keys(k)


def test_page(driver, page, trace, name):
    url = "file://" + page
    n = len(trace)
    driver.get(url + "#step=1")
    wait_ready(driver)
    check_step(driver, trace, 1, name)
    for _ in range(3):
        driver.find_element(By.ID, "next").click()
    check_step(driver, trace, min(4, n), name)
    key(driver, Keys.ARROW_RIGHT)
    check_step(driver, trace, min(5, n), name)
    key(driver, Keys.ARROW_LEFT)
    key(driver, "p")
    check_step(driver, trace, min(3, n), name)
    driver.find_element(By.ID, "prev").click()
    check_step(driver, trace, min(2, n), name)
    # jump box
    mid = n // 2 + 1
    box = driver.find_element(By.ID, "jump")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(str(mid) + Keys.ENTER)
    check_step(driver, trace, mid, name)
    check(driver.current_url.endswith(f"#step={mid}"), f"{name}: fragment follows the step")
    key(driver, Keys.END)
    check_step(driver, trace, n, name)
    key(driver, Keys.HOME)
    check_step(driver, trace, 1, name)
    driver.find_element(By.ID, "last").click()
    check_step(driver, trace, n, name)
    driver.find_element(By.ID, "first").click()
    # the next use of a rule: the most frequent rule after step 1
    rules = [r["rule"] for r in trace]
    target = max(set(rules[1:]), key=rules.count)
    pick = Select(driver.find_element(By.ID, "rule-pick"))
    for o in pick.options:
        if o.text.startswith(target + " ("):
            pick.select_by_value(o.get_attribute("value"))
    key(driver, "r")
    first_use = rules.index(target, 1) + 1
    check_step(driver, trace, first_use, name)
    if target in rules[first_use:]:
        driver.find_element(By.ID, "rule-next").click()
        check_step(driver, trace, rules.index(target, first_use) + 1, name)
    # a link to a step, followed on the open page and when the page is opened with it
    k = max(1, (2 * n) // 3)
    driver.get(url + f"#step={k}")
    check_step(driver, trace, k, name)
    driver.get("about:blank")
    driver.get(url + f"#step={k - 1 or 1}")
    wait_ready(driver)
    check_step(driver, trace, k - 1 or 1, name)
    # play at 20 steps a second, then pause
    driver.find_element(By.ID, "first").click()
    Select(driver.find_element(By.ID, "speed")).select_by_value("50")
    driver.find_element(By.ID, "play").click()
    time.sleep(0.5)
    driver.find_element(By.ID, "play").click()
    shown = int(text(driver, "step-no"))
    check(shown > 2 or n <= 2, f"{name}: playing advanced to step {shown}")
    check_step(driver, trace, shown, name)
    # every step, quickly: rule and costs (the full check above covers the rest)
    driver.find_element(By.ID, "first").click()
    body = driver.find_element(By.TAG_NAME, "body")
    i = 1
    while i < min(n, 120):
        k = min(10, n - i)
        body.send_keys("n" * k)
        i += k
        check_step(driver, trace, i, name)


def main():
    binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    gallery = os.path.join(ROOT, "examples", "teaching")
    programs = sorted(os.path.join(gallery, f) for f in os.listdir(gallery)
                      if f.endswith((".tail", ".fcl")))
    driver = start_chrome()
    try:
        for src in programs:
            page, trace = generate(binary, src, out)
            name = os.path.basename(src)
            before = len(FAILURES)
            test_page(driver, page, trace, name)
            print(("ok  " if len(FAILURES) == before else "BAD ") + f"{name}: {len(trace)} steps")
    finally:
        driver.quit()
    if FAILURES:
        print(f"browser tests: {len(FAILURES)} failures")
        sys.exit(1)
    print(f"browser tests: {len(programs)} pages passed")


if __name__ == "__main__":
    main()
