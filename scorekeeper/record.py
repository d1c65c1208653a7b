"""Light data classes for the core: `record`, `field`, `replace` in the manner of the standard `dataclasses`.

The standard module imports `inspect` (and with it `ast`, `dis`, `tokenize`) and builds six methods per class
from source: about 20 ms of every command's start-up for the core's classes. Here a record's first instances
bind their arguments by name, and its own `__init__` is compiled only once it has made many; equality, hashing,
repr and freezing are shared functions. What the
core uses is supported: `frozen`, defaults, `field(default_factory=...)`, inheritance, `__post_init__`, `replace`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")

_MISSING: Any = object()


class FrozenInstanceError(AttributeError):
    """An attempt to change a field of a frozen record."""


class _Spec:
    """A field's default, or the factory of its default; and whether `__init__` takes it."""

    __slots__ = ("default", "default_factory", "init")

    def __init__(self, default: Any, default_factory: Any, init: bool = True) -> None:
        self.default = default
        self.default_factory = default_factory
        self.init = init


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | Any = _MISSING, init: bool = True) -> Any:
    """A field's default (`default=`) or a factory called for each new record (`default_factory=`).

    `init=False`: a value `__post_init__` works out, not a parameter, and left out of equality, hashing and repr.
    """
    return _Spec(default, default_factory, init)


def _eq(self: Any, other: Any) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented  # type: ignore[no-any-return]
    return all(bool(getattr(self, n) == getattr(other, n)) for n in self.__record_fields__)


def _hash(self: Any) -> int:
    return hash(tuple(getattr(self, n) for n in self.__record_fields__))


def _repr(self: Any) -> str:
    inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_fields__)
    return f"{self.__class__.__qualname__}({inner})"


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


class _Signature:
    """A record class's signature for `inspect.signature` (its fields, as `__init__` takes them), worked out when
    asked: the first records' `__init__` takes `*args, **kwargs`, and `inspect` is not imported to say so before."""

    def __get__(self, obj: Any, cls: type) -> Any:
        import inspect

        specs: dict[str, _Spec] = cls.__record_specs__  # type: ignore[attr-defined]
        factory = type("_Factory", (), {"__repr__": lambda _: "<factory>"})()
        return inspect.Signature([
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              default=factory if spec.default_factory is not _MISSING else
                              inspect.Parameter.empty if spec.default is _MISSING else spec.default)
            for name, spec in specs.items() if spec.init])


_SIGNATURE = _Signature()


def _build(cls: type, frozen: bool) -> type:
    specs: dict[str, _Spec] = {}
    for base in reversed(cls.__mro__[1:]):
        specs.update(getattr(base, "__record_specs__", {}))
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if "ClassVar" in str(annotation):
            continue
        value = cls.__dict__.get(name, _MISSING)
        spec = value if isinstance(value, _Spec) else _Spec(value, _MISSING)
        if isinstance(value, _Spec):
            if value.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, value.default)
        specs.pop(name, None)
        specs[name] = spec
    names = tuple(name for name, spec in specs.items() if spec.init)
    seen_default = False
    for name, spec in specs.items():
        if not spec.init:
            continue
        if spec.default is not _MISSING or spec.default_factory is not _MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
    cls.__init__ = _deferred_init(cls, specs, hasattr(cls, "__post_init__"))  # type: ignore[misc]
    cls.__record_fields__ = names  # type: ignore[attr-defined]
    cls.__record_specs__ = specs  # type: ignore[attr-defined]
    cls.__signature__ = _SIGNATURE  # type: ignore[attr-defined]
    setattr(cls, "__match_args__", names)  # noqa: B010
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = _repr  # type: ignore[assignment]
    if "__eq__" not in cls.__dict__:
        cls.__eq__ = _eq  # type: ignore[assignment]
        cls.__hash__ = _hash if frozen else None  # type: ignore[assignment]
    if frozen:
        cls.__setattr__ = _frozen_setattr  # type: ignore[assignment]
        cls.__delattr__ = _frozen_delattr  # type: ignore[assignment]
    return cls


COMPILE_AFTER = 64
"""A class's own `__init__` is compiled (about as costly as making a few hundred records without it) once this many
of its records were made: a command or a first frame that makes a few of each compiles nothing."""


def _deferred_init(cls: type, specs: dict[str, _Spec], post_init: bool) -> Callable[..., None]:
    """An `__init__` that binds the arguments by name for the first records of the class, then compiles the
    record's own and puts it in its place (a class never made, or made a few times, costs no compiling)."""
    names = tuple(name for name, spec in specs.items() if spec.init)
    count = len(names)
    made = 0

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        if made >= COMPILE_AFTER:
            init = _make_init(cls, specs, post_init)
            cls.__init__ = init  # type: ignore[misc]
            init(self, *args, **kwargs)
            return
        if len(args) > count:
            raise TypeError(f"{cls.__qualname__}() takes {count} arguments but {len(args)} were given")
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in specs or not specs[name].init:
                raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {name!r}")
            if name in values:
                raise TypeError(f"{cls.__qualname__}() got multiple values for argument {name!r}")
            values[name] = value
        if len(values) < count:
            for name in names:
                if name not in values:
                    spec = specs[name]
                    if spec.default_factory is not _MISSING:
                        values[name] = spec.default_factory()
                    elif spec.default is not _MISSING:
                        values[name] = spec.default
                    else:
                        raise TypeError(f"{cls.__qualname__}() missing the argument {name!r}")
        if kwargs:
            values = {name: values[name] for name in names}  # in the fields' order, as the compiled one stores them
        self.__dict__.update(values)
        if post_init:
            self.__post_init__()

    return __init__


def _make_init(cls: type, specs: dict[str, _Spec], post_init: bool) -> Callable[..., None]:
    """The record's `__init__`, from source: its fields as parameters, stored straight into the instance's dict
    (as a frozen record must be, past its `__setattr__`)."""
    scope: dict[str, Any] = {"_MISSING": _MISSING}
    params, body = [], []
    names = [name for name, spec in specs.items() if spec.init]
    for name in names:
        spec = specs[name]
        if spec.default_factory is not _MISSING:
            scope[f"_f_{name}"] = spec.default_factory
            params.append(f"{name}=_MISSING")
            body.append(f"    if {name} is _MISSING: {name} = _f_{name}()")
        elif spec.default is not _MISSING:
            scope[f"_d_{name}"] = spec.default
            params.append(f"{name}=_d_{name}")
        else:
            params.append(name)
    body.append(f"    self.__dict__.update({', '.join(f'{n}={n}' for n in names)})")
    if post_init:
        body.append("    self.__post_init__()")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), scope)  # as dataclasses does
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[T] | None = None, /, *, frozen: bool = False) -> Any:
    """Make a class a record: `@record` or `@record(frozen=True)`, fields from its annotations, in order."""
    if cls is None:
        return lambda c: _build(c, frozen)
    return _build(cls, frozen)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of a record with some fields changed."""
    values = {n: getattr(obj, n) for n in obj.__record_fields__}  # type: ignore[attr-defined]
    for name in changes:
        if name not in values:
            raise TypeError(f"{obj.__class__.__name__} has no field {name!r}")
    values.update(changes)
    return obj.__class__(**values)
