"""Where phones at the table reach the app: the address put in sign-in links
and their QR codes.

The app itself only listens; which address a phone can open is the
operator's to say (``--public-url`` or ``KRONIEK_PUBLIC_URL``, behind a
proxy), or, for ``kroniek run --lan``, this machine's own address on the
local network, read from its network interfaces (``ifaddr``). Finding it
sends nothing anywhere: no lookup, no packet.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlsplit

#: the environment variable that names the public address (``kroniek run`` passes it to the API it starts)
PUBLIC_URL_ENV = "KRONIEK_PUBLIC_URL"


class BadPublicUrl(ValueError):
    """A public address that a link could not be made of."""


def check_public_url(url: str) -> str:
    """``url`` as links start with it: ``http(s)://host[:port]``, no path, no
    query, no trailing slash. A proxy that serves the app under a path is not
    supported: the pages' own links start at ``/``."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a port that is no number, or out of range, raises here
    except ValueError as exc:
        raise BadPublicUrl(f"{url!r} is not an address: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadPublicUrl(f"{url!r} must start with http:// or https:// and name a host (https://kroniek.club.nl)")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise BadPublicUrl(f"{url!r} must be only a scheme, a host and a port: the app is served from the root (/)")
    if any(ch.isspace() or ord(ch) < 32 for ch in text):
        raise BadPublicUrl(f"{url!r} may not hold white space or control characters")
    return f"{parts.scheme}://{parts.netloc}"


def public_url_from_env() -> str | None:
    """``KRONIEK_PUBLIC_URL`` checked (``BadPublicUrl`` when it is wrong), or None when unset."""
    value = os.environ.get(PUBLIC_URL_ENV, "").strip()
    return check_public_url(value) if value else None


def _rank(address: ipaddress.IPv4Address) -> int | None:
    """How likely a phone on the same network reaches this address (lower is likelier), None for never: a
    home or club network's private ranges first, then other private ones (a carrier's shared range), then a
    public address; never loopback, link-local (no DHCP answered), multicast or unspecified."""
    if address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified:
        return None
    for rank, net in enumerate(("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")):
        if address in ipaddress.ip_network(net):
            return rank
    return 3 if address.is_private else 4


#: interfaces that are not a network a phone is on (containers, VMs, VPNs)
_VIRTUAL = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "tun", "tap", "wg", "zt", "lxc", "cni", "flannel")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that a phone on its network could open, likeliest first."""
    import ifaddr

    found: list[tuple[int, int, str]] = []
    for adapter in ifaddr.get_adapters():
        name = (adapter.nice_name or adapter.name or "").lower()
        virtual = 1 if name.startswith(_VIRTUAL) else 0
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6: (address, flowinfo, scope); a phone is told the IPv4 one
                continue
            try:
                rank = _rank(ipaddress.IPv4Address(ip.ip))
            except ValueError:
                continue
            if rank is not None:
                found.append((virtual, rank, ip.ip))
    return [ip for _, _, ip in sorted(set(found))]


def lan_url(port: int) -> str | None:
    """``http://<this machine's LAN address>:<port>``, or None when it has none (no network)."""
    addresses = lan_addresses()
    return f"http://{addresses[0]}:{port}" if addresses else None
