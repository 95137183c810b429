"""Fixtures: one headless Chromium for the whole run, a fresh `hlsq serve` per test, and
the test origin for the tests that need a stream served with faults."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from harness import Origin, Server, start_chromium


@pytest.fixture(scope="session")
def browser():
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def origin():
    running = Origin()
    yield running
    running.stop()


class Dashboard:
    """The page under test, with waits on what it shows."""

    def __init__(self, driver, server: Server):
        self.driver = driver
        self.server = server
        self.api = server.api

    def wait(self, timeout: float = 10) -> WebDriverWait:
        return WebDriverWait(self.driver, timeout)

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visible(self, css: str, timeout: float = 10):
        return self.wait(timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))

    def row(self, item_id: str):
        return self.find(f'#item-list [data-item-id="{item_id}"]')

    def shown_item_ids(self) -> list[str]:
        return [element.get_attribute("data-item-id") for element in self.find_all("#item-list > li")]

    def wait_for_shown_ids(self, expected: list[str], timeout: float = 10):
        self.wait(timeout).until(lambda _: self.shown_item_ids() == expected,
                                 message=f"the list never showed {expected}")

    def alert_texts(self) -> list[str]:
        return [element.text for element in self.find_all('#alerts [role="alert"]')]


@pytest.fixture
def dashboard(browser, server):
    browser.get_log("browser")  # forget what earlier pages logged
    browser.get(server.url + "/")
    page = Dashboard(browser, server)
    # Loaded: the demo queue is selected, its items listed, and the event stream is open.
    page.wait().until(lambda _: page.find("#connection").get_attribute("data-state") == "open")
    page.wait().until(lambda _: len(page.shown_item_ids()) == len(server.api.item_ids()))
    yield page
    # Close the page's event stream before the server stops.
    browser.get("about:blank")
