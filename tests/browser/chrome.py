"""Starting headless Chromium under Selenium for the browser tests and the page benchmark."""

import shutil
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start_chrome(width=1280, height=900):
    """Headless Chromium (Debian's /usr/bin/chromium with its chromedriver)."""
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--allow-file-access-from-files"):
        opts.add_argument(arg)
    binary = shutil.which("chromium") or "/usr/bin/chromium"
    opts.binary_location = binary
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=opts)


def wait_ready(driver, timeout=30.0):
    """Waits until the page's script has shown its first step (body[data-ready])."""
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script("return document.body && document.body.dataset.ready === '1'"):
            return
        time.sleep(0.02)
    raise TimeoutError("the page did not become ready")
