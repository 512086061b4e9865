"""One frozen value class for the records of every hot path (the hook, ``gate hash``):
equality, hash, repr, pickling and immutability over ``__slots__``, as a frozen dataclass
has them, without importing ``dataclasses`` (which imports ``inspect``) or ``typing``. Pure,
standard library only, and imports nothing at run time."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing is not imported at run time
    from typing import Any


class FrozenValue:
    """Equality, hash, repr, pickling and immutability over ``__slots__``, as a frozen
    dataclass has them."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, FrozenValue)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: {type(self).__name__} is frozen")

    def __reduce__(self) -> tuple[Any, ...]:
        # by name: a constructor's parameters need not come in the order of __slots__
        return _rebuild, (type(self), dict(zip(self.__slots__, self._values(), strict=True)))

    def _set(self, **values: object) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def replace(self, **changes: Any) -> Any:
        """A copy with ``changes`` (as ``dataclasses.replace``)."""
        unknown = set(changes) - set(self.__slots__)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        return type(self)(**{n: changes.get(n, getattr(self, n)) for n in self.__slots__})


def _rebuild(cls: type[FrozenValue], fields: dict[str, Any]) -> FrozenValue:
    """Unpickle through the constructor, by field name (its checks run again)."""
    return cls(**fields)
