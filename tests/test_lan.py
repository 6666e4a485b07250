"""Phones at the table reach the server (issue 34, part 1): ``make run LAN=1``
serves every interface and puts this machine's LAN address in the sign-in
links and QR codes it prints and the pages make; the printed QR code reads the
same in a light terminal and a dark one; the README's Caddy recipe serves the
app over HTTPS.

Every request here goes to 127.0.0.1: the LAN address is checked as text,
never connected to (the server listens on it, the test does not call it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests

from service.addresses import BadPublicUrl, check_public_url, lan_addresses
from service.signin import qr_text
from tests.support.qr import DARK, LIGHT, decode_image_in_page, decode_terminal
from tests.test_run import ctrl_c, free_port, start, stop

ROOT = Path(__file__).resolve().parents[1]
CADDYFILE = ROOT / "docs" / "examples" / "Caddyfile"


def test_the_terminal_qr_code_reads_the_same_in_a_light_and_a_dark_terminal():
    url = "http://192.168.1.20:8000/signin#kl_" + "a1B2" * 11
    coloured = qr_text(url, color=True)
    assert decode_terminal(coloured, DARK) == [url]
    assert decode_terminal(coloured, LIGHT) == [url]
    # the terminal's own colours (no colour codes: a pipe, NO_COLOR) draw it inverted on a light terminal,
    # which a scanner cannot read: the reader above tells the two apart
    plain = qr_text(url, color=False)
    assert decode_terminal(plain, DARK) == [url]
    assert decode_terminal(plain, LIGHT) == []


def test_a_public_address_is_a_scheme_a_host_and_a_port():
    assert check_public_url("https://kroniek.club.nl/") == "https://kroniek.club.nl"
    assert check_public_url(" http://192.168.1.20:8000 ") == "http://192.168.1.20:8000"
    for bad in ("192.168.1.20:8000", "ftp://x", "https://club.nl/kroniek", "https://club.nl?x=1", "https://a:b@club.nl",
                "https://club.nl:99999", "http://", "https://club.nl/\r\nSet-Cookie: x=1"):
        with pytest.raises(BadPublicUrl):
            check_public_url(bad)


def _printed_link(output: str, base: str) -> str:
    return re.search(rf"^  ({re.escape(base)}/signin#kl_[\w-]+)$", output, re.M).group(1)


@pytest.mark.slow(12)
def test_make_run_lan_puts_the_lan_address_in_every_link_and_qr_code(tmp_path, browser):
    lan = lan_addresses()
    assert lan, "this machine has no LAN address to serve phones on"
    port = free_port()
    public = f"http://{lan[0]}:{port}"
    # the README's command, through the Makefile, its colours forced as a terminal would show them
    command = ["make", "-s", "--no-print-directory", "-C", str(ROOT), "run", "LAN=1", f"PORT={port}", f"VAR={tmp_path / 'var'}"]
    proc, base, token = start(tmp_path / "var", port, env={"FORCE_COLOR": "1"}, command=command)
    try:
        assert base == f"http://127.0.0.1:{port}"
        assert f"Phones open: {public}/" in proc.head, proc.head
        link = _printed_link(proc.head, public)
        assert decode_terminal(proc.head, DARK) == [link] and decode_terminal(proc.head, LIGHT) == [link]
        # it listens on every interface (the test only reaches it through loopback)
        listening = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True).stdout
        assert f"0.0.0.0:{port}" in listening, listening

        # a link the API makes, asked for on 127.0.0.1, carries the LAN address too
        made = requests.post(f"{base}/api/users/admin/sign-in-links", json={"next": "/"}, timeout=10,
                             headers={"Authorization": f"Bearer {token}"}).json()
        assert made["url"].startswith(f"{public}/signin#kl_")
        # and so does one made on a page opened on the laptop (127.0.0.1): its QR code read from the page's pixels
        from tests.test_web import context, page_of

        page = page_of(context(browser, token))
        page.goto(f"{base}/me")
        page.wait_for_function("() => document.querySelector('#me-who').textContent.includes('admin')")  # its script ran
        page.click("#new-link")
        page.wait_for_selector("#link-out img.qr")
        page.wait_for_function("() => document.querySelector('#link-out img.qr').complete")
        shown = page.get_attribute("#link-out .link-url", "href")
        assert shown.startswith(f"{public}/signin#kl_")
        assert decode_image_in_page(page, "#link-out img.qr") == [shown]

        # the printed link signs a phone in (opened here through loopback: same path, same server)
        phone = requests.Session()
        path, secret = urlsplit(link).path, urlsplit(link).fragment
        assert path == "/signin" and phone.get(f"{base}{path}", timeout=10).status_code == 200
        asked = phone.post(f"{base}/signin/peek", json={"secret": secret}, headers={"Origin": base}, timeout=10)
        assert asked.json() == {"user": "admin"}
        assert phone.post(f"{base}/signin", data={"secret": secret}, headers={"Origin": base},
                          timeout=10).status_code == 200
        assert phone.get(f"{base}/api/me", timeout=10).json()["name"] == "admin"
    finally:
        out = ctrl_c(proc)
    assert "Stopped." in out


@pytest.mark.slow(10)
def test_the_caddy_recipe_serves_the_app_over_https(tmp_path):
    """docs/ui.md's recipe as written: ``kroniek run --public-url`` behind Caddy with the Caddyfile from
    docs/examples (``tls internal``), here on 127.0.0.1 and free ports."""
    caddy = shutil.which("caddy")
    assert caddy, "Caddy is not installed: apt-get install -y caddy (.ci/run does)"
    port, https_port = free_port(), free_port()
    site = f"https://127.0.0.1:{https_port}"
    proc, base, token = start(tmp_path / "var", port, "--public-url", site)
    data = tmp_path / "caddy"
    env = {**os.environ, "XDG_DATA_HOME": str(data / "data"), "XDG_CONFIG_HOME": str(data / "config"),
           "KRONIEK_SITE": site, "KRONIEK_HTTPS_PORT": str(https_port), "KRONIEK_UPSTREAM": f"127.0.0.1:{port}"}
    log = open(tmp_path / "caddy.log", "w")
    proxy = subprocess.Popen([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                             stdout=log, stderr=subprocess.STDOUT)
    try:
        root = data / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 30
        while not root.exists():
            assert proxy.poll() is None and time.monotonic() < deadline, (tmp_path / "caddy.log").read_text()
            time.sleep(0.1)
        secure = requests.Session()
        secure.verify = str(root)  # the phones trust Caddy's own authority once; so does this client
        secure.trust_env = False  # (REQUESTS_CA_BUNDLE would take the place of that authority)
        while True:
            try:
                if secure.get(f"{site}/api/health", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert proxy.poll() is None and time.monotonic() < deadline + 30, (tmp_path / "caddy.log").read_text()
            time.sleep(0.2)
        link = _printed_link(proc.head, site)
        opened, secret = link.split("#", 1)  # what a browser asks the proxy for: the page, not the fragment
        assert secure.get(opened, timeout=10).status_code == 200
        asked = secure.post(f"{site}/signin/peek", json={"secret": secret}, headers={"Origin": site}, timeout=10)
        assert asked.json() == {"user": "admin"}
        signed_in = secure.post(f"{site}/signin", data={"secret": secret}, headers={"Origin": site}, timeout=10,
                                allow_redirects=False)
        assert signed_in.status_code == 303
        cookie = next(c for c in secure.cookies if c.name == "kroniek_session")
        assert cookie.secure, "behind the proxy (X-Forwarded-Proto: https) the session cookie is Secure"
        assert secure.get(f"{site}/api/me", timeout=10).json()["name"] == "admin"
        # the service worker is served over https (a phone can then open a page offline)
        worker = secure.get(f"{site}/sw.js", timeout=10)
        assert worker.status_code == 200 and worker.headers["Content-Type"].startswith("text/javascript")
        # links the API makes carry the public address
        made = secure.post(f"{site}/api/users/admin/sign-in-links", json={"next": "/"}, timeout=10,
                           headers={"Authorization": f"Bearer {token}", "Origin": site}).json()
        assert made["url"].startswith(f"{site}/signin#kl_")
    finally:
        proxy.terminate()
        proxy.wait(timeout=20)
        log.close()
        stop(proc)
