"""Quicker construction of the engine's frozen dataclasses (see docs/combat.md, Performance).

quick_init: a faster constructor for the small ones (events, actions, effects).

A frozen dataclass's generated __init__ sets every field through object.__setattr__, which costs
about three times a plain attribute store; the battle loop builds hundreds of events and effects
per engine call. quick_init swaps in an __init__ with the same signature that fills the
instance's __dict__ directly, or for a slots dataclass (the events) its slots through their
descriptors. The instances are the same: the same fields and values, still frozen (assignment
raises FrozenInstanceError), with the dataclass's eq, hash, repr and replace. Only for classes
without default factories, __post_init__ or InitVars, with slots all the way or none (checked).

unchecked: an instance from its field values without __init__, for the battle loop's results.
"""
from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a plain frozen dataclass an __init__ that stores into __dict__ directly."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    # T is any class: its type does not know the dataclass attribute.
    params = getattr(cls, "__dataclass_params__")  # noqa: B009
    # Slots all the way (no instance __dict__) or none: a mix would need both kinds of store.
    slotted = cls.__dictoffset__ == 0
    if not params.frozen or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") is not slotted:
        raise TypeError(f"quick_init is for plain frozen dataclasses, not {cls.__name__}")
    generated = list(inspect.signature(cls).parameters)
    if generated != [f.name for f in fields] or any(
        f.default_factory is not dataclasses.MISSING or f.kw_only for f in fields
    ):
        raise TypeError(f"quick_init needs fields with plain defaults or none: {cls.__name__}")
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    params_source = ", ".join(f"{f.name}=_defaults[{f.name!r}]" if f.name in defaults else f.name
                              for f in fields)
    namespace: dict[str, Any] = {"_defaults": defaults}
    lines = [f"def __init__(self, {params_source}):"]
    if slotted:
        # Each slot's descriptor stores directly (the frozen class's own __setattr__ refuses).
        namespace.update({f"_set_{f.name}": getattr(cls, f.name).__set__ for f in fields})
        lines += [f"    _set_{f.name}(self, {f.name})" for f in fields] or ["    pass"]
    else:
        lines.append("    values = self.__dict__")
        lines += [f"    values[{f.name!r}] = {f.name}" for f in fields] or ["    pass"]
    exec("\n".join(lines), namespace)  # noqa: S102 (as dataclasses itself builds __init__)
    names = [f.name for f in fields]
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = f"{cls.__name__}({', '.join(names)})"
    # A plain assignment to a method is refused by mypy (method-assign); setattr says what is meant.
    setattr(cls, "__init__", init)  # noqa: B010
    return cls


def unchecked(cls: type[T], values: dict[str, Any]) -> T:
    """An instance of the frozen dataclass cls whose fields are exactly `values`, made without
    running __init__ or __post_init__ (no enum coercion, no range checks).

    For the battle loop's own results: dataclasses.replace would re-validate every changed
    combatant and the state on every engine call, for values kept valid by construction.
    Equality, hashing, repr and to_dict read only the fields, so the instance is the same as
    the one the constructor would make. `values` must hold every field and nothing else.
    """
    new = object.__new__(cls)
    new.__dict__.update(values)
    return new
