"""The inspector page (docs/inspector.md) in a real browser: headless Chromium driven by
Selenium, against the real `smrun serve` (the debug build, or $SMRUN) on a temporary store.
`make test` runs it after the Swift tests; alone:

    SMRUN=.build/debug/smrun python3 Tests/Inspector/test_inspector.py

Screenshots go to .build/inspector-screenshots/. It needs Debian's chromium and
chromium-driver and Selenium (PyPI); `make test-deps` installs them.
"""

import json
import os
import tempfile
import time
import unittest

from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from inspector_support import ROOT, Server, browser

MACHINE = os.path.join(ROOT, "Tests", "Inspector", "kiosk.yaml")
SCREENSHOTS = os.path.join(ROOT, ".build", "inspector-screenshots")
PROBE = "<img src=x onerror=alert(1)>"


class InspectorTestCase(unittest.TestCase):
    server_arguments = ()
    server_environment = None

    @classmethod
    def setUpClass(cls):
        cls.server = Server([MACHINE], *cls.server_arguments, environment=cls.server_environment)
        try:
            cls.driver = browser()
        except Exception:
            cls.server.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()

    def tearDown(self):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{self.id().split('.')[-1]}.png"))
        self.assertNoAlert()

    def assertNoAlert(self):
        try:
            text = self.driver.switch_to.alert.text
        except NoAlertPresentException:
            return
        self.fail(f"the page opened an alert: {text!r}")

    def wait(self, condition, what, timeout=5.0):
        try:
            # A list the page draws anew while the condition reads it: read it again.
            waiting = WebDriverWait(self.driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
            return waiting.until(lambda _: condition())
        except TimeoutException:
            self.fail(f"not within {timeout} s: {what}")

    def find(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def one(self, selector, timeout=5.0):
        return self.wait(lambda: (self.find(selector) or [None])[0], f"an element {selector}", timeout)

    def lit(self):
        """The states the diagram shows active, and their lit ancestors."""
        active = {e.get_attribute("data-state") for e in self.find("[data-state].active")}
        ancestors = {e.get_attribute("data-state") for e in self.find("[data-state].active-ancestor")}
        return active, ancestors

    def open_instance(self, key, context=None, wait_for_diagram=True):
        """Creates `key` through the page's form and waits for its view."""
        self.driver.get(self.server.url + "/")
        self.click_link("kiosk")
        self.one("#new-key").send_keys(key)
        if context is not None:
            self.one("#new-context").send_keys(json.dumps(context))
        self.one("form.create button[type=submit]").click()
        lit = (lambda: self.find("[data-state].active")) if wait_for_diagram else (lambda: True)
        self.wait(lambda: lit() and self.find("[data-seq='1']"), f"the view of {key}")

    def link(self, text):
        return self.wait(lambda: next((a for a in self.find("a") if a.text == text), None), f"a link '{text}'")

    def send(self, name, arg=None, entry=None):
        """Clicks the input's button (after typing its argument); with `entry`, waits for the
        history entry of that seq, so that the next click cannot overtake it."""
        if arg is not None:
            field = self.one(f"#arg-{name}")
            field.clear()
            field.send_keys(arg)
        self.one(f"[data-input='{name}']").click()
        if entry is not None:
            self.one(f"[data-seq='{entry}']")

    def answer(self):
        return self.one(".answer").text

    def context(self):
        """The context the page shows: each variable's value as its text (read again when the
        page draws the table anew while it is read: a later entry's feed may redraw it)."""
        def read():
            return ({row.find_element(By.TAG_NAME, "th").text: row.find_element(By.TAG_NAME, "td").text
                     for row in self.find("table.context tbody tr") if row.find_elements(By.TAG_NAME, "th")},)
        return self.wait(read, "the context table")[0]

    def click_link(self, text):
        """Clicks the link, finding it again if the list was drawn anew meanwhile."""
        self.wait(lambda: self.link(text).click() or True, f"a click on '{text}'")


class InspectorTests(InspectorTestCase):
    server_arguments = ("--clock", "virtual")

    def test_inputs_move_the_lit_state_and_mark_the_transition_taken(self):
        self.open_instance("walk")
        self.assertEqual(self.lit(), ({"idle"}, set()))
        self.send("insert", "3", entry=2)
        self.wait(lambda: self.lit() == ({"paying"}, {"active"}), "paying lit, active its lit ancestor")
        self.assertTrue(self.find(".taken[data-transition]"), "the edge of the transition taken is marked")
        self.assertIn("idle → paying", self.answer())
        self.wait(lambda: self.context().get("coins") == "3", "coins 3 in the context")
        self.send("insert", "4", entry=3)
        self.send("choose", entry=4)
        self.wait(lambda: self.lit() == ({"choosing"}, {"active"}), "choosing lit")
        finish = self.one("[data-input='finish']")
        self.wait(lambda: finish.is_enabled(), "finish enabled in choosing")
        finish.click()
        self.wait(lambda: self.lit() == ({"done"}, set()), "done lit")
        self.wait(lambda: all(not b.is_enabled() for b in self.find("[data-input]")), "every input disabled once final")

    def test_a_disabled_input_shows_why_and_a_rejection_its_reason(self):
        self.open_instance("reasons")
        finish = self.one("[data-input='finish']")
        self.wait(lambda: not finish.is_enabled(), "finish disabled in idle")
        reason = self.one("#reason-finish").text
        self.assertIn("finish", reason)
        self.send("insert", "1", entry=2)
        self.wait(lambda: self.lit()[0] == {"paying"}, "paying lit")
        self.send("choose")
        self.wait(lambda: "rejected" in self.answer(), "the rejection")
        self.assertIn("guard", self.answer())
        self.assertEqual(self.lit()[0], {"paying"})

    def test_a_context_typed_on_the_page_is_sent_as_typed(self):
        # Parsed and written again by the page, 2^53 + 1 became 2^53 and 1.0 became 1 (which
        # the server would have refused for an int as it refuses it from any client).
        self.open_instance("exact", context={"coins": 9007199254740993})
        status, instance = self.server.call("GET", "/machines/kiosk/instances/exact")
        self.assertEqual((status, instance["context"]["coins"]), (200, 9007199254740993))
        self.driver.get(self.server.url + "/#/machines/kiosk")
        self.one("#new-key").send_keys("whole")
        self.one("#new-context").send_keys('{"coins": 1.0}')
        self.one("form.create button[type=submit]").click()
        self.wait(lambda: "1.0" in self.one(".create .error").text, "the server's refusal of 1.0 for an int")
        self.assertEqual(self.server.call("GET", "/machines/kiosk/instances/whole")[0], 404)

    def test_a_view_that_loads_after_the_page_went_elsewhere_draws_nothing(self):
        # The first instance's reads are held back 800 ms, so that they end after the second
        # instance's view is up: it used to draw over it, not live, under the second's address.
        self.open_instance("slow")
        self.open_instance("quick")
        self.driver.get(self.server.url + "/#/")
        self.one("ul.machines")
        self.driver.execute_script("""
            const real = window.fetch;
            window.fetch = (path, init) => String(path).includes('/instances/slow')
                ? new Promise((resolve) => setTimeout(resolve, 800)).then(() => real(path, init))
                : real(path, init);
            location.hash = '#/machines/kiosk/instances/slow';
            setTimeout(() => { location.hash = '#/machines/kiosk/instances/quick'; }, 50);
        """)
        self.wait(lambda: self.one("h1").text == "quick", "quick's view")
        self.wait(lambda: "live" in self.one(".feed").text, "quick's feed live")
        time.sleep(1.5)
        self.assertEqual(self.one("h1").text, "quick", "the slower view of 'slow' drew over it")
        self.assertIn("live", self.one(".feed").text)

    def test_a_long_value_wraps_without_squeezing_names_or_widening_the_history(self):
        self.open_instance("wide")
        status, _ = self.server.call("POST", "/machines/kiosk/instances/wide/inputs", {"input": "label", "arg": "W" * 4000})
        self.assertEqual(status, 200)
        self.wait(lambda: len(self.context().get("note", "")) > 3000, "the long note in the context")
        self.one("[data-seq='2']")
        widths = self.driver.execute_script("""
            const name = document.querySelector('table.context tbody th');
            const timeline = document.querySelector('.timeline');
            return [name.getBoundingClientRect().width, timeline.scrollWidth, timeline.clientWidth];
        """)
        self.assertGreater(widths[0], 60, "the variables' column squeezed")
        self.assertLessEqual(widths[1], widths[2] + 1, "the history wider than its box")

    def test_an_int_beyond_two_to_the_53_is_shown_with_every_digit(self):
        # Parsed as doubles, 9223372036854775807 showed as 9223372036854776000.
        self.open_instance("huge")
        status, _ = self.server.call("POST", "/machines/kiosk/instances/huge/inputs", {"input": "insert", "arg": 9223372036854775807})
        self.assertEqual(status, 200)
        self.wait(lambda: self.context().get("coins") == "9223372036854775807", "the int in the context, every digit")
        self.assertIn("insert 9223372036854775807", self.one("[data-seq='2']").text)
        self.driver.refresh()
        self.wait(lambda: self.context().get("coins") == "9223372036854775807", "the int read anew, every digit")

    def test_an_address_that_does_not_decode_is_named(self):
        self.open_instance("decoded")
        self.driver.get(self.server.url + "/#/machines/kiosk/instances/%E0%A4%A")
        self.wait(lambda: "no address of this page" in self.one("#failure").text, "the failure named")
        self.assertFalse(self.find("[data-input]"), "the earlier instance's view is gone")

    def test_an_argument_of_the_wrong_type_is_refused_before_sending(self):
        self.open_instance("typed")
        self.send("insert", "three")
        self.wait(lambda: "takes an int" in self.answer(), "the argument's error")
        self.send("insert", "99999999999999999999")
        self.wait(lambda: "between" in self.answer(), "the int's range")
        status, instance = self.server.call("GET", "/machines/kiosk/instances/typed")
        self.assertEqual((status, instance["version"]), (200, 1), "nothing was sent")

    def test_another_clients_input_appears_within_a_second(self):
        self.open_instance("shared")
        self.wait(lambda: "live" in self.one(".feed").text, "the feed connected")
        status, _ = self.server.call("POST", "/machines/kiosk/instances/shared/inputs", {"input": "insert", "arg": 7})
        self.assertEqual(status, 200)
        sent = time.monotonic()
        self.wait(lambda: self.find("[data-seq='2']") and self.lit()[0] == {"paying"}, "the other client's entry", timeout=1.0)
        self.assertLess(time.monotonic() - sent, 1.0)
        self.assertIn("insert 7", self.one("[data-seq='2']").text)

    def test_an_earlier_entry_shows_the_instance_as_it_was(self):
        self.open_instance("travel")
        self.send("insert", "5", entry=2)
        self.send("choose", entry=3)
        self.wait(lambda: self.lit()[0] == {"choosing"} and self.find("[data-seq='3']"), "choosing, entry 3")
        self.one("[data-seq='1']").click()
        self.wait(lambda: self.lit() == ({"idle"}, set()), "idle lit after entry 1")
        self.assertEqual(self.context(), {"coins": "0", "note": '""'})
        self.assertTrue(all(not b.is_enabled() for b in self.find("[data-input]")), "read-only in the past")
        self.one("[data-seq='2']").click()
        self.wait(lambda: self.lit() == ({"paying"}, {"active"}), "paying lit after entry 2")
        self.assertTrue(self.find(".taken[data-transition]"), "entry 2's transition marked")
        self.one("button.live").click()
        self.wait(lambda: self.lit()[0] == {"choosing"}, "back to now")
        self.assertEqual(self.context()["coins"], "5")

    def test_names_and_values_that_look_like_html_are_text(self):
        self.open_instance("probe", context={"note": PROBE})
        self.send("label", PROBE)
        self.wait(lambda: "label" in self.answer(), "the answer")
        self.wait(lambda: self.context().get("note") == json.dumps(PROBE), f"the note {json.dumps(PROBE)} as text")
        self.assertIn(PROBE, self.driver.find_element(By.CSS_SELECTOR, ".timeline").text)
        tooltip = self.driver.execute_script(
            "return document.querySelector('[data-state=\"idle\"] a').getAttributeNS('http://www.w3.org/1999/xlink', 'title')")
        self.assertEqual(tooltip, PROBE, "the description is the state's tooltip, as text")
        self.assertEqual(self.find("img"), [], "no element was made from the probe")
        self.assertEqual(self.driver.execute_script("return document.querySelectorAll('[onerror]').length"), 0)

    def test_the_virtual_clock_fires_a_timer(self):
        self.open_instance("timed")
        self.send("insert", "5", entry=2)
        self.send("choose", entry=3)
        self.wait(lambda: self.lit()[0] == {"choosing"}, "choosing lit")
        self.wait(lambda: "after 2s" in self.one(".timers").text, "the pending timer")
        self.one("[data-clock='1s']").click()
        self.wait(lambda: self.find("[data-seq='4']") or "No results" in self.answer(), "the first second passed")
        self.assertEqual(self.lit()[0], {"choosing"}, "not due after 1 s")
        self.one("[data-clock='next-timer']").click()
        self.wait(lambda: self.lit()[0] == {"idle"}, "the timer fired")
        self.wait(lambda: "after 2s: choosing → idle" in self.answer(), "the timer's result named by its timer, not '?'")
        self.wait(lambda: "timer" in self.one("[data-seq='4']").text, "its history entry")
        self.one("[data-clock='1m']").click()
        self.wait(lambda: "1 min" in self.one(".clock").text, "the clock moved a minute")

    def test_machines_and_instances_are_listed_by_name_and_filtered(self):
        for key, coins in [("list-a", None), ("list-b", 2)]:
            self.assertEqual(self.server.call("POST", "/machines/kiosk/instances", {"key": key})[0], 201)
            if coins:
                self.server.call("POST", f"/machines/kiosk/instances/{key}/inputs", {"input": "insert", "arg": coins})
        self.driver.get(self.server.url + "/")
        self.click_link("kiosk")
        self.link("list-a")
        self.link("list-b")
        self.one("#filter-state option[value='active']")
        self.driver.execute_script(
            "const s = document.getElementById('filter-state'); s.value = 'active'; s.dispatchEvent(new Event('change'))")
        self.wait(lambda: not any(a.text == "list-a" for a in self.find("a")), "list-a filtered out")
        self.click_link("list-b")
        self.wait(lambda: self.lit() == ({"paying"}, {"active"}), "list-b's view")

    def test_a_long_history_loads_its_newest_fifty_first(self):
        self.server.call("POST", "/machines/kiosk/instances", {"key": "long"})
        for _ in range(59):
            self.server.call("POST", "/machines/kiosk/instances/long/inputs", {"input": "label", "arg": "x"})
        self.driver.get(self.server.url + "/#/machines/kiosk/instances/long")
        self.one("[data-seq='60']")
        self.assertEqual(len(self.find("[data-seq]")), 50)
        self.assertFalse(self.find("[data-seq='10']"))
        self.one("button.older").click()
        self.one("[data-seq='1']")
        self.assertEqual(len(self.find("[data-seq]")), 60)


class WithoutGraphvizTests(InspectorTestCase):
    server_environment = {**os.environ, "PATH": "/nonexistent"}

    def test_the_diagram_is_mermaid_text_when_the_server_has_no_graphviz(self):
        self.open_instance("plain", wait_for_diagram=False)
        mermaid = self.one("pre.mermaid")
        self.assertIn("idle", mermaid.text)
        self.assertIn("graphviz", self.one(".diagram p").text)
        self.send("insert", "1", entry=2)
        self.wait(lambda: "paying" in self.one(".summary .state").text, "the state moves without a drawing")


class TokenTests(InspectorTestCase):
    token = "inspector-test-token"

    @classmethod
    def setUpClass(cls):
        cls.token_file = tempfile.NamedTemporaryFile("w", suffix=".token", delete=False)
        cls.token_file.write(cls.token + "\n")
        cls.token_file.close()
        cls.server_arguments = ("--token-file", cls.token_file.name)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        os.unlink(cls.token_file.name)

    def test_the_page_asks_for_the_token_once_and_sends_it(self):
        self.assertEqual(self.server.call("GET", "/machines")[0], 401)
        self.driver.get(self.server.url + "/")
        field = self.one("#token-input")
        self.wait(lambda: field.is_displayed(), "the token form")
        # A header carries ASCII only: a pasted curly quote made every request throw, and
        # the form never came back, even after a reload.
        field.send_keys("s3cret\u2019token")
        self.one("#token-form button").click()
        self.wait(lambda: "printable ASCII" in self.one("#token-error").text, "the token the page cannot send refused")
        self.assertTrue(field.is_displayed())
        field.clear()
        field.send_keys("wrong")
        self.one("#token-form button").click()
        self.wait(lambda: "refused" in self.one("#token-error").text, "the wrong token refused")
        field.send_keys(self.token)
        self.one("#token-form button").click()
        self.click_link("kiosk")
        self.one("#new-key").send_keys("guarded")
        self.one("form.create button[type=submit]").click()
        self.wait(lambda: self.lit()[0] == {"idle"}, "the instance's view")
        self.send("insert", "2")
        self.wait(lambda: self.lit()[0] == {"paying"}, "the input sent with the token")
        self.driver.refresh()
        self.wait(lambda: self.lit()[0] == {"paying"}, "the token kept for the tab")
        self.assertFalse(self.one("#token-input", timeout=1).is_displayed())

    def test_the_api_link_opens_the_apis_description(self):
        # A browser follows a link without the page's token: the description needs none.
        self.driver.get(self.server.url + "/")
        self.one(".links a").click()
        self.wait(
            lambda: self.driver.current_url.endswith("/openapi.json") and '"openapi"' in self.driver.find_element(By.TAG_NAME, "body").text,
            "the API's description, not a 401",
        )


if __name__ == "__main__":
    unittest.main(verbosity=2)
