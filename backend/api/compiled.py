"""Answers and inputs declared once, by their DRF serializer, and compiled into fast functions.

A serializer class is the declaration of an answer: the OpenAPI schema comes from it, and so does
``renderer(SerializerClass)``, a function ``obj -> SerializerClass(obj).data`` built once per class
(Python source generated from the bound fields, then compiled): the same keys in the same order, the
same types and nulls, nested serializers and ``many=True`` included. DRF builds a serializer and deep-
copies its fields for every object it shows; the compiled function only reads values and converts
them with the field's own rule, so a large answer costs a fraction of ``.data`` (issue 13 measured
DRF's copying as most of a poll's Python). Unusual cases go to the field's own code (a missing value,
a callable attribute, a dotted source): the answer is DRF's by construction, not by a test per answer.

``validator(SerializerClass)`` is the input side: a function ``data -> validated data`` that checks
well-formed input by the fields' declared rules without DRF's machinery, and hands anything else to
the serializer, which words the 400 (``backend.api.views.valid``).

Both refuse, when compiled, a field or a serializer they cannot reproduce exactly (``NotCompilable``):
an overridden ``to_representation`` or ``validate_<field>``, a method field, a related field, ...;
such a serializer stays with DRF.
"""
from __future__ import annotations

import keyword
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from django.core import validators as django_validators
from django.db.models.manager import BaseManager
from rest_framework import serializers
from rest_framework.fields import SkipField, _UnvalidatedField, empty
from rest_framework.validators import ProhibitSurrogateCharactersValidator

#: Any DRF field, and any serializer: the compiler reads them generically, whatever their type parameters.
AnyField: TypeAlias = "serializers.Field[Any, Any, Any, Any]"
AnySerializer: TypeAlias = "serializers.Serializer[Any]"


class NotCompilable(TypeError):
    """A serializer (or one of its fields) the compiler cannot reproduce exactly."""


_SKIP = object()
_MISSING = object()


def _slow_attribute(field: AnyField, obj: Any) -> Any:
    """DRF's own attribute lookup, for everything but a plain value at a plain key or attribute: a
    missing one (default, null, skipped or an error), a callable, a dotted or ``*`` source."""
    try:
        return field.get_attribute(obj)
    except SkipField:
        return _SKIP


def _identity(field: AnyField) -> bool:
    """The field shows its value as it is (a list's or mapping's unchecked items, read-only, JSON)."""
    shown = type(field).to_representation
    return shown in (serializers.ReadOnlyField.to_representation, _UnvalidatedField.to_representation) or (
        shown is serializers.JSONField.to_representation and isinstance(field, serializers.JSONField)
        and not field.binary)


#: Leaf fields whose ``to_representation`` is inlined: the function -> the expression of value ``v``.
_INLINE = {
    serializers.IntegerField.to_representation: "int({v})",
    serializers.FloatField.to_representation: "float({v})",
    serializers.CharField.to_representation: "str({v})",
}
#: Leaf fields whose own ``to_representation`` is called (it depends on nothing but the value and the
#: field's options, read at the call: a datetime's format and the current time zone, a decimal's places).
_CALLED = {
    serializers.DateTimeField.to_representation, serializers.DateField.to_representation,
    serializers.TimeField.to_representation, serializers.DecimalField.to_representation,
    serializers.DurationField.to_representation, serializers.UUIDField.to_representation,
}


class _Compiler:
    """Writes one Python function per serializer node; ``names`` holds what the source refers to."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"_Mapping": Mapping, "_Manager": BaseManager, "_SKIP": _SKIP,
                                      "_MISSING": _MISSING, "_slow": _slow_attribute, "_callable": callable}
        self.functions: list[str] = []
        self.depth = 0
        self._handles: dict[int, str] = {}

    def name(self, value: Any, prefix: str) -> str:
        found = f"{prefix}{len(self.names)}"
        self.names[found] = value
        return found

    def handle(self, field: AnyField) -> str:
        """The name the source calls a field object by (one per field)."""
        found = self._handles.get(id(field))
        if found is None:
            found = self._handles[id(field)] = self.name(field, "f_")
        return found

    def serializer(self, node: AnySerializer) -> str:
        """The name of the function rendering ``node`` (a serializer instance, its fields bound)."""
        cls = type(node)
        for method in ("to_representation", "get_attribute"):
            if getattr(cls, method) is not getattr(serializers.Serializer, method):
                raise NotCompilable(f"{cls.__name__} overrides {method}()")
        if type(node)._readable_fields is not serializers.Serializer._readable_fields:
            raise NotCompilable(f"{cls.__name__} overrides _readable_fields")
        function = self.name(None, "render_")
        lines = [f"def {function}(obj):", "    d = obj.__class__ is dict",
                 "    m = d or isinstance(obj, _Mapping)", "    out = {}"]
        for field in node._readable_fields:
            lines += self._field(node, field)
        lines.append("    return out")
        self.functions.append("\n".join(lines))
        return function

    def _field(self, node: AnySerializer, field: AnyField) -> list[str]:
        if type(field).get_attribute is not serializers.Field.get_attribute:
            raise NotCompilable(f"{type(node).__name__}.{field.field_name}: {type(field).__name__} "
                                "reads its value its own way")
        handle = self.handle(field)
        attrs = field.source_attrs
        if not (len(attrs) == 1 and attrs[0].isidentifier() and not keyword.iskeyword(attrs[0])):
            lines = [f"    v = _slow({handle}, obj)"]
        else:
            # What DRF does when the value is missing, decided now from the field's options.
            if field.default is not empty or (field.required and not field.allow_null):
                missing = f"_slow({handle}, obj)"  # the default (maybe callable), or DRF's error
            else:
                missing = "None" if field.allow_null else "_SKIP"
            attr = attrs[0]
            lines = ["    try:",
                     (f"        v = obj.get({attr!r}, _MISSING) if d else obj[{attr!r}] if m "
                     f"else getattr(obj, {attr!r}, _MISSING)"),
                     "    except Exception:",
                     f"        v = _slow({handle}, obj)",
                     "    else:",
                     "        if v is _MISSING:",
                     f"            v = {missing}",
                     "        elif _callable(v):",
                     f"            v = _slow({handle}, obj)"]
        key = repr(field.field_name)
        shown = self.value(field, "v")
        lines += ["    if v is not _SKIP:", f"        out[{key}] = None if v is None else {shown}"]
        return lines

    def value(self, field: AnyField, v: str) -> str:
        """The expression of ``field.to_representation(v)`` for a value ``v`` (a name) that is not None."""
        kind = type(field)
        if isinstance(field, serializers.ListSerializer):
            if kind.to_representation is not serializers.ListSerializer.to_representation:
                raise NotCompilable(f"{kind.__name__} overrides to_representation()")
            if not isinstance(field.child, serializers.Serializer):
                raise NotCompilable(f"{kind.__name__} has no serializer as its child")
            child = self.serializer(field.child)
            item = self._item()
            return f"[{child}({item}) for {item} in ({v}.all() if isinstance({v}, _Manager) else {v})]"
        if isinstance(field, serializers.Serializer):
            return f"{self.serializer(field)}({v})"
        if (kind.to_representation is serializers.ListField.to_representation
                and isinstance(field, serializers.ListField)):
            item = self._item()
            return f"[None if {item} is None else {self.value(field.child, item)} for {item} in {v}]"
        if (kind.to_representation is serializers.DictField.to_representation
                and isinstance(field, serializers.DictField)):
            item, key = self._item(), self._item()
            return (f"{{str({key}): None if {item} is None else {self.value(field.child, item)} "
                    f"for {key}, {item} in {v}.items()}}")
        if _identity(field):
            return v
        inline = _INLINE.get(kind.to_representation)
        if inline is not None:
            return inline.format(v=v)
        handle = self.handle(field)
        if kind.to_representation is serializers.BooleanField.to_representation:
            return f"(True if {v} is True else False if {v} is False else {handle}.to_representation({v}))"
        if (kind.to_representation is serializers.ChoiceField.to_representation
                and isinstance(field, serializers.ChoiceField)):
            choices = self.name(field.choice_strings_to_values, "choices_")
            return f"({choices}.get({v}, {v}) if {v}.__class__ is str else {handle}.to_representation({v}))"
        if kind.to_representation in _CALLED:
            return f"{handle}.to_representation({v})"
        raise NotCompilable(f"{kind.__name__} ({getattr(field, 'field_name', '?')}) is not compiled")

    def _item(self) -> str:
        self.depth += 1
        return f"x{self.depth}"


_RENDERERS: dict[type[AnySerializer], Callable[[Any], dict[str, Any]]] = {}


def renderer(serializer_class: type[AnySerializer]) -> Callable[[Any], dict[str, Any]]:
    """``obj -> serializer_class(obj).data`` as one compiled function (built on the first call for
    the class, then kept). Raises ``NotCompilable`` for a serializer it cannot reproduce."""
    found = _RENDERERS.get(serializer_class)
    if found is None:
        compiler = _Compiler()
        top = compiler.serializer(serializer_class())
        namespace = dict(compiler.names)
        source = "\n\n".join(compiler.functions)
        code = compile(source, f"<renderer of {serializer_class.__qualname__}>", "exec")
        exec(code, namespace)  # noqa: S102 - the source is generated here from the serializer's fields
        found = _RENDERERS[serializer_class] = namespace[top]
    return found


# --- inputs -------------------------------------------------------------------------------------------

_NOT_FAST = object()

#: The validators a field's own options make (min/max value, length, no null character, no surrogate):
#: the fast check applies each of them itself.
_OWN_VALIDATORS = (django_validators.MinValueValidator, django_validators.MaxValueValidator,
                   django_validators.MinLengthValidator, django_validators.MaxLengthValidator,
                   django_validators.ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)


def _check_serializer(node: AnySerializer) -> None:
    cls = type(node)
    for method in ("to_internal_value", "run_validation", "validate", "run_validators", "get_value"):
        if getattr(cls, method) is not getattr(serializers.Serializer, method):
            raise NotCompilable(f"{cls.__name__} overrides {method}()")
    if node.validators:
        raise NotCompilable(f"{cls.__name__} has validators of its own")


def _input_check(node: AnySerializer) -> Callable[[Any], Any]:
    """A function ``data -> validated data`` for input ``node`` accepts unchanged, or ``_NOT_FAST``."""
    _check_serializer(node)
    checks: list[tuple[str, Any, bool, bool, Callable[[Any], Any]]] = []
    for field in node._writable_fields:
        if field.field_name is None:
            raise NotCompilable(f"{type(node).__name__} has a field that is not bound")
        if hasattr(node, f"validate_{field.field_name}"):
            raise NotCompilable(f"{type(node).__name__} has validate_{field.field_name}()")
        if field.source_attrs != [field.field_name]:
            raise NotCompilable(f"{type(node).__name__}.{field.field_name} has a source of its own")
        if field.default is not empty and callable(field.default):
            raise NotCompilable(f"{type(node).__name__}.{field.field_name} has a callable default")
        checks.append((field.field_name, field.default, field.required, field.allow_null,
                       _value_check(field)))

    def check(data: Any) -> Any:
        if data.__class__ is not dict:
            return _NOT_FAST
        out = {}
        for name, default, required, allow_null, value_check in checks:
            value = data.get(name, empty)
            if value is empty:
                if required:
                    return _NOT_FAST
                if default is not empty:
                    out[name] = default
                continue
            if value is None:
                if not allow_null:
                    return _NOT_FAST
                out[name] = None
                continue
            checked = value_check(value)
            if checked is _NOT_FAST:
                return _NOT_FAST
            out[name] = checked
        return out

    return check


def _value_check(field: AnyField) -> Callable[[Any], Any]:
    """What ``field.run_validation(value)`` gives for a value (not None) it accepts unchanged, else
    ``_NOT_FAST``: ints, plain ASCII strings, bools, choices and nested objects of the usual shapes."""
    if isinstance(field, serializers.Serializer):
        return _input_check(field)
    kind = type(field)
    if not all(isinstance(v, _OWN_VALIDATORS) for v in field.validators):
        raise NotCompilable(f"{kind.__name__} ({field.field_name}) has validators of its own")
    for method in ("run_validation", "to_internal_value", "validate_empty_values", "run_validators"):
        declared = next(base for base in kind.__mro__ if method in vars(base))
        if declared.__module__ != serializers.Field.__module__:
            raise NotCompilable(f"{kind.__name__} overrides {method}()")
    if (kind.to_internal_value is serializers.IntegerField.to_internal_value
            and isinstance(field, serializers.IntegerField)):
        low, high = field.min_value, field.max_value

        def integer(value: Any) -> Any:
            if value.__class__ is not int:
                return _NOT_FAST
            if (low is not None and value < low) or (high is not None and value > high):
                return _NOT_FAST
            return value
        return integer
    if (kind.to_internal_value is serializers.CharField.to_internal_value
            and isinstance(field, serializers.CharField)):
        shortest, longest = field.min_length or 0, field.max_length
        blank, trim = field.allow_blank, field.trim_whitespace

        def text(value: Any) -> Any:
            if (value.__class__ is not str or not value.isascii() or "\x00" in value
                    or (trim and value.strip() != value) or (value == "" and not blank)):
                return _NOT_FAST
            if value and (len(value) < shortest or (longest is not None and len(value) > longest)):
                return _NOT_FAST
            return value
        return text
    if (kind.to_internal_value is serializers.ChoiceField.to_internal_value
            and isinstance(field, serializers.ChoiceField)):
        choices, blank = field.choice_strings_to_values, field.allow_blank

        def choice(value: Any) -> Any:
            if value.__class__ is not str:
                return _NOT_FAST
            if value == "" and blank:
                return ""
            return choices.get(value, _NOT_FAST)
        return choice
    if kind.to_internal_value is serializers.BooleanField.to_internal_value:
        return lambda value: value if value.__class__ is bool else _NOT_FAST
    if (kind.to_internal_value is serializers.DictField.to_internal_value
            and isinstance(field, serializers.DictField) and type(field.child) is _UnvalidatedField
            and type(field).run_child_validation is serializers.DictField.run_child_validation):
        # A free JSON object (e.g. a match's action): its items are taken as they are, under string keys.
        allow_empty = field.allow_empty

        def mapping(value: Any) -> Any:
            if value.__class__ is not dict or (not value and not allow_empty):
                return _NOT_FAST
            return {str(key): item for key, item in value.items()}
        return mapping
    raise NotCompilable(f"{kind.__name__} ({field.field_name}) has no fast input check")


def validated(serializer_class: type[AnySerializer], data: Any) -> dict[str, Any]:
    """Validate request data with an input serializer (400 ``invalid`` with field errors if bad)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class Validator:
    """``validator(SerializerClass)``: call it with request data for the validated data (or the
    serializer's 400); ``fast(data)`` is the compiled check alone (None: left to the serializer)."""

    def __init__(self, serializer_class: type[AnySerializer]) -> None:
        self.serializer_class = serializer_class
        self._check = _input_check(serializer_class())

    def fast(self, data: Any) -> dict[str, Any] | None:
        checked = self._check(data)
        return None if checked is _NOT_FAST else checked

    def __call__(self, data: Any) -> dict[str, Any]:
        checked = self._check(data)
        return validated(self.serializer_class, data) if checked is _NOT_FAST else checked


_VALIDATORS: dict[type[AnySerializer], Validator] = {}


def validator(serializer_class: type[AnySerializer]) -> Validator:
    """The compiled input check of ``serializer_class`` (built once per class). Raises
    ``NotCompilable`` for a serializer whose checks it cannot reproduce."""
    found = _VALIDATORS.get(serializer_class)
    if found is None:
        found = _VALIDATORS[serializer_class] = Validator(serializer_class)
    return found
