#!/usr/bin/python3
"""Opens a teaching page in headless Chromium and prints, as JSON, how long it took: `load_ms`
(navigation start to the load event), `ready_ms` (until the page's script showed the first step),
`last_ms` and `middle_ms` (showing the last and the middle step: the End key, the jump box).

usage: open_time.py PAGE.html
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chrome import start_chrome, wait_ready  # noqa: E402

JUMP = """
const t0 = performance.now();
document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "End", bubbles: true}));
const t1 = performance.now();
const box = document.getElementById("jump");
box.value = Math.floor(Number(document.getElementById("count").textContent) / 2);
box.dispatchEvent(new Event("change"));
const t2 = performance.now();
return [t1 - t0, t2 - t1, document.getElementById("step-no").textContent];
"""


def main():
    page = os.path.abspath(sys.argv[1])
    driver = start_chrome()
    try:
        driver.get("file://" + page)
        wait_ready(driver, timeout=120)
        t = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [n.loadEventEnd, window.stepperReadyMs];")
        last, middle, shown = driver.execute_script(JUMP)
        print(json.dumps({"load_ms": round(t[0]), "ready_ms": round(t[1]),
                          "last_ms": round(last, 1), "middle_ms": round(middle, 1),
                          "middle_step": shown}))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
