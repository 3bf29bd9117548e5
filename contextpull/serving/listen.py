"""The HTTP server's socket and the names it may be called by (system-design.txt sections 7, 11).

Two things a person starting ``serve --transport http`` must be able to trust:

- the "serving ... at http://..." line is printed only once the port is really ours: ``listen``
  binds first, and a busy, privileged or foreign address is one line naming the address and what
  to pass instead (``InputError``, exit 3) before anything is announced;
- a server bound to every interface (``0.0.0.0`` or ``::``) answers the machine's own names and
  addresses, the ones a client on another machine puts in its ``Host`` header, while DNS-rebinding
  protection still refuses every other name. ``machine_names`` lists them; any other name (a DNS
  alias, a proxy's) is added with ``--allow-origin``, and the start-up line says so.

Standard library only: the MCP SDK is the caller's business.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys

from ..errors import InputError

WILDCARD_HOSTS = ("0.0.0.0", "::", "")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def display(host: str) -> str:
    """``host`` as it appears in a URL: IPv6 literals in brackets."""
    return f"[{host}]" if ":" in host else host


def listen(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or one ``InputError`` saying why not."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", "pass --host 127.0.0.1, 0.0.0.0 or one of this machine's addresses") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart reuses the port at once
        if family == socket.AF_INET6 and host in WILDCARD_HOSTS:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {display(host)}:{port}: {exc.strerror or exc}", _bind_hint(exc.errno)) from None
    return sock


def _bind_hint(code: int | None) -> str:
    if code == errno.EADDRINUSE:
        return "another process is listening there: stop it, or pass --port with a free port (or set CONTEXTPULL_PORT)"
    if code in (errno.EACCES, errno.EPERM):
        return "ports below 1024 need privileges: pass --port 8765 or another port above 1023"
    if code == errno.EADDRNOTAVAIL:
        return "that address is not one of this machine's: pass --host 127.0.0.1, 0.0.0.0 or one of its addresses"
    return "pass another --host or --port"


def allowed_names(host: str, extra_origins: tuple[str, ...] = (),
                  names: list[str] | None = None) -> tuple[list[str], list[str]]:
    """The ``Host`` and ``Origin`` patterns a server bound to ``host`` accepts (section 11).

    Loopback always; bound to one address, that address; bound to all, ``machine_names``; and
    whatever ``--allow-origin`` adds (a name without a port matches it on any port). ``names``
    is ``machine_names(host)`` when the caller has it already (``contextpull serve`` prints
    them), so the resolver and the interfaces are asked once per start.
    """
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    if host in WILDCARD_HOSTS:
        names = machine_names(host) if names is None else names
    else:
        names = [] if host in LOOPBACK_HOSTS else [host]
    for name in names:
        hosts.append(f"{display(name)}:*")
        origins += [f"http://{display(name)}:*", f"https://{display(name)}:*"]
    for origin in extra_origins:
        origin = origin.rstrip("/")
        netloc = origin.split("://", 1)[-1]
        origins.append(origin)
        hosts.append(netloc)
        if not netloc.rsplit("]", 1)[-1].count(":"):  # no explicit port: any port on that name
            hosts.append(f"{netloc}:*")
    return hosts, origins


def machine_names(host: str) -> list[str]:
    """For a wildcard bind, the names and non-loopback addresses other machines reach this one by.

    The host name, what it resolves to, and each interface's address (IPv4 through ``ioctl`` on
    Linux, IPv6 from ``/proc/net/if_inet6``; link-local addresses are left out, since a Host
    header cannot carry their zone). Empty for any other bind: that address is the one name.
    """
    if host not in WILDCARD_HOSTS:
        return []
    want_v6 = host != "0.0.0.0"
    names: list[str] = []
    hostname = socket.gethostname()
    if hostname:
        names.append(hostname)
    addresses: list[str] = []
    try:
        for info in socket.getaddrinfo(hostname, None, type=socket.SOCK_STREAM):
            addresses.append(info[4][0])
    except OSError:
        pass
    addresses += _interface_ipv4()
    if want_v6:
        addresses += _interface_ipv6()
    for text in addresses:
        try:
            ip = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or (ip.version == 6 and not want_v6):
            continue
        names.append(str(ip))
    return list(dict.fromkeys(names))


def _interface_ipv4() -> list[str]:
    if not sys.platform.startswith("linux"):
        return []
    import fcntl
    import struct

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:  # never sends: only asks the kernel
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def _interface_ipv6() -> list[str]:
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as handle:
            rows = [line.split()[0] for line in handle if line.strip()]
    except OSError:
        return []
    return [str(ipaddress.IPv6Address(bytes.fromhex(row))) for row in rows if len(row) == 32]
