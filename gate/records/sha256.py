"""SHA-256 for the ledger's chain, without loading OpenSSL into every ``gate halt hook``.

``hashlib.sha256`` is OpenSSL's; importing ``hashlib`` links libcrypto, which costs a
``gate halt hook`` process (one per agent tool call) more than hashing a few short ledger
lines with CPython's own implementation does. Both compute the same function; large inputs
(``gate hash``) keep using ``hashlib``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - a Python built without its own SHA-256
        from hashlib import sha256

__all__ = ["sha256"]
