"""The page's link to the server: the token prompt, and following the event stream across a
restart of the server."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Dashboard
from harness import Server

TOKEN = "a-token-for-the-browser-tests"


@pytest.fixture
def server_with_token():
    running = Server(token=TOKEN)
    yield running
    running.stop()


def answer_token_prompt(page: Dashboard, token: str):
    page.wait().until(lambda _: page.find("#token-dialog").get_attribute("open") is not None)
    field = page.find("#token-input")
    field.clear()
    field.send_keys(token)
    page.find("#token-form button[type=submit]").click()


def test_the_token_is_asked_for_once_and_kept(browser, server_with_token):
    page = Dashboard(browser, server_with_token)
    try:
        browser.get(server_with_token.url + "/")
        # A wrong token is refused and asked for again, with a message saying so.
        answer_token_prompt(page, "not-the-token")
        page.wait().until(lambda _: page.find("#token-refused").is_displayed())
        answer_token_prompt(page, TOKEN)
        page.wait().until(lambda _: page.find("#connection").get_attribute("data-state") == "open")
        page.wait().until(lambda _: len(page.shown_item_ids()) == len(page.api.item_ids()))
        assert browser.execute_script("return localStorage.getItem('hlsq.token')") == TOKEN

        # The event stream carries the token too: a change made elsewhere arrives.
        page.api.request("PATCH", "/api/queues/q-1", {"name": "Guarded"})
        page.wait().until(lambda _: page.find("#queue-heading").text == "Guarded")

        # A reload uses the kept token without asking.
        browser.refresh()
        page.wait().until(lambda _: page.find("#connection").get_attribute("data-state") == "open")
        assert page.find("#token-dialog").get_attribute("open") is None
        assert page.find("#queue-heading").text == "Guarded"
    finally:
        browser.get("about:blank")


def test_the_page_follows_the_server_across_a_restart(dashboard):
    dashboard.server.restart()
    # The stream reconnects with its last event id, which the new process no longer holds:
    # the server says resync and the page reads the snapshots again.
    WebDriverWait(dashboard.driver, 15).until(
        lambda _: any("Refreshing" in alert.text for alert in dashboard.find_all("#alerts .alert")))
    dashboard.wait().until(lambda _: dashboard.find("#connection").get_attribute("data-state") == "open")
    dashboard.api.request("POST", "/api/queues/q-1/items",
                          {"url": dashboard.server.url + "/media/chapters.mp4", "title": "After the restart"})
    dashboard.wait().until(lambda _: [element.text for element in
                                      dashboard.find_all("#item-list > li .item-title")][-1:] == ["After the restart"])
    assert dashboard.shown_item_ids() == dashboard.api.item_ids()
    assert dashboard.find_all("#alerts [role='alert']") == []
