"""The phone page on the network: its content security policy names only this server, and a
phone's browser is told in a few words."""

from __future__ import annotations

from companion.phones.network import content_security_policy, describe_device


def test_csp_names_only_this_server():
    assert "connect-src 'self' ws://192.168.1.20:8750;" in content_security_policy("192.168.1.20:8750")
    assert "connect-src 'self' ws://[fe80::1]:8750;" in content_security_policy("[fe80::1]:8750")
    for forged in ("evil.example; script-src *", "x y", "", "a" * 300, "host:99999999"):
        assert "connect-src 'self';" in content_security_policy(forged), forged
    assert "ws:" not in content_security_policy("") and "wss:" not in content_security_policy("a:1")
    assert (
        describe_device(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
        )
        == "Safari on iPhone"
    )
    assert (
        describe_device(
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
            "SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36"
        )
        == "Samsung Internet on Android"
    )
    assert describe_device("") == "a browser"
