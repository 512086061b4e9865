"""The host a tool call will reach, read from a URL or a bare host name.

One function for both places where tool calls happen: ``gate halt hook`` (the target fields of
an agent CLI's tool input) and :class:`gate.agent.guard.ToolGuard` (the declared target
argument of a decorated Python tool). Whatever this returns is the host the halt table sees;
whatever it refuses is recorded with an empty host, which the table halts.

A value containing ``://`` (or starting with ``//``) is a URL: the host is ``urllib.parse``'s
``hostname`` (lower case; a port is ignored, but a port that is not a number blocks). Any other
value is a bare host name. Both are compared as DNS does
(:func:`gate.decide.halt.host_key`). Refused outright: user info (``@``) in a URL's
authority, a backslash, white space, control or non-ASCII characters anywhere in the value
(parsers disagree about those; the call would not go where it seems to).
"""

from __future__ import annotations

from gate.decide.halt import host_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gate.decide.halt import Binding


class TargetRefused(ValueError):
    """The value names no host that can be trusted; the message says why."""


def target_host(value: object) -> str:
    """The host a URL or bare host value names; :class:`TargetRefused` when it cannot be trusted."""
    if not isinstance(value, str):
        raise TargetRefused(f"target is a {type(value).__name__}, not a string")
    if not value:
        raise TargetRefused("empty target")
    if not value.isascii() or any(not ch.isprintable() or ch.isspace() for ch in value):
        raise TargetRefused("target holds white space, control or non-ASCII characters")
    if "\\" in value:
        raise TargetRefused("target holds a backslash")
    if "://" not in value and not value.startswith("//"):
        return host_key(value)
    import urllib.parse  # only when there is a URL to parse

    try:
        parts = urllib.parse.urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as exc:
        raise TargetRefused(f"unparsable URL: {exc}") from None
    if "@" in parts.netloc:
        raise TargetRefused("URL carries user info (@) in its authority")
    if not parts.hostname:
        raise TargetRefused("URL has no host")
    return host_key(parts.hostname)


def attempted(bound: Binding, host: str) -> Binding:
    """The binding a call to ``host`` attempts: the run's binding with its host replaced."""
    from gate.decide.halt import Binding

    return Binding(bound.run_id, bound.generation, bound.scope, host, bound.marker,
                   bound.target_class)
