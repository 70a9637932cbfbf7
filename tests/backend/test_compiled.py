"""The compiled renderer and validator of a serializer say exactly what DRF says (backend/api/compiled.py).

Serializers are drawn at random from every field kind the compiler supports (with nulls, missing
values, defaults, renamed sources, nesting and ``many=True``), objects and inputs at random for them;
the compiled answer must be DRF's to the type and key order, and a compiled input check must accept
only what the serializer accepts, giving what it gives.
"""
from __future__ import annotations

import datetime as dt
import itertools
import json
from collections import OrderedDict
from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from backend.api.compiled import NotCompilable, renderer, validated, validator
from combat.serializers import BattleActInput
from matches.serializers import MatchActInput

_names = itertools.count()
NAMES = st.sampled_from(["a", "b", "c", "id", "kind", "items", "class", "x y"])
TEXT = st.text(max_size=6)
CHOICES = ["red", "blue", 1, 2]
ZONES = [dt.UTC, dt.timezone(dt.timedelta(hours=2)),
         dt.timezone(dt.timedelta(hours=-5, minutes=-30))]
DATETIMES = st.builds(lambda moment, zone: moment.replace(tzinfo=zone),
                      st.datetimes(min_value=dt.datetime(1990, 1, 1), max_value=dt.datetime(2100, 1, 1)),
                      st.sampled_from([None, *ZONES]))
JSON = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                    max_leaves=6)


# --- what a serializer declares, and values for it -------------------------------------------------------

LEAVES = {
    "integer": (serializers.IntegerField, st.integers() | st.booleans() | st.sampled_from(["7", "x"])),
    "float": (serializers.FloatField, st.floats(allow_nan=False) | st.integers(-10**6, 10**6)),
    "char": (serializers.CharField, TEXT | st.integers()),
    "boolean": (serializers.BooleanField, st.booleans() | st.sampled_from([0, 1, "true", "no", "x", 2])),
    "choice": (lambda **o: serializers.ChoiceField(choices=CHOICES, **o),
               st.sampled_from([*CHOICES, "1", "green", 3, ""])),
    "datetime": (serializers.DateTimeField, DATETIMES),
    "json": (serializers.JSONField, JSON),
    "readonly": (lambda **o: serializers.ReadOnlyField(), st.integers() | TEXT),
}


@st.composite
def declared(draw: Any, depth: int = 0) -> dict[str, Any]:
    """A field as data: its kind, options and (for containers) what it holds."""
    kinds = [*LEAVES, "list", "dict"] + (["nested", "many"] if depth < 2 else [])
    kind = draw(st.sampled_from(kinds))
    spec: dict[str, Any] = {"kind": kind, "allow_null": draw(st.booleans()),
                            "required": draw(st.booleans()), "source": draw(st.none() | NAMES)}
    if kind in ("list", "dict"):
        spec["child"] = draw(st.sampled_from(list(LEAVES)).filter(lambda k: k != "readonly"))
    if kind in ("nested", "many"):
        spec["fields"] = draw(st.dictionaries(NAMES, declared(depth + 1), min_size=1, max_size=3))
    if kind in LEAVES and kind != "readonly" and draw(st.booleans()):
        spec["default"] = draw(LEAVES[kind][1])
    return spec


def build(fields: dict[str, dict[str, Any]]) -> type[serializers.Serializer]:
    attrs = {}
    for name, spec in fields.items():
        options: dict[str, Any] = {"allow_null": spec["allow_null"]}
        if spec["source"] is not None and spec["source"] != name:
            options["source"] = spec["source"]
        if "default" in spec:
            options["default"] = spec["default"]
        elif not spec["required"]:
            options["required"] = False
        kind = spec["kind"]
        if kind in LEAVES:
            field = LEAVES[kind][0](**({} if kind == "readonly" else options))
        elif kind == "list":
            field = serializers.ListField(child=LEAVES[spec["child"]][0](), **options)
        elif kind == "dict":
            field = serializers.DictField(child=LEAVES[spec["child"]][0](), **options)
        else:
            field = build(spec["fields"])(many=kind == "many", **options)
        attrs[name] = field
    return type(f"Drawn{next(_names)}", (serializers.Serializer,), attrs)


@st.composite
def instance(draw: Any, fields: dict[str, dict[str, Any]]) -> Any:
    """An object for a serializer of ``fields``: a dict, another mapping or attributes, values maybe
    missing or None."""
    values = {}
    for name, spec in fields.items():
        key = spec["source"] if spec["source"] is not None and spec["kind"] != "readonly" else name
        if draw(st.integers(0, 9)) == 0:
            continue  # missing
        values[key] = None if draw(st.integers(0, 7)) == 0 else draw(value(spec))
    shape = draw(st.sampled_from(["dict", "mapping", "object"]))
    if shape == "dict":
        return values
    if shape == "mapping":
        return MappingProxyType(values)
    return SimpleNamespace(**{k: v for k, v in values.items() if k.isidentifier()})


def value(spec: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = spec["kind"]
    if kind in LEAVES:
        return LEAVES[kind][1]
    if kind == "list":
        return st.lists(LEAVES[spec["child"]][1] | st.none(), max_size=3)
    if kind == "dict":
        return st.dictionaries(TEXT | st.integers(), LEAVES[spec["child"]][1] | st.none(), max_size=3)
    if kind == "nested":
        return instance(spec["fields"])
    return st.lists(instance(spec["fields"]), max_size=3)


def plain(data: Any) -> Any:
    """DRF's ReturnDict / ReturnList / OrderedDict as plain dicts and lists (their repr then says types)."""
    if isinstance(data, dict):
        return {key: plain(item) for key, item in data.items()}
    if isinstance(data, list):
        return [plain(item) for item in data]
    return data


def outcome(call: Any) -> tuple[str, Any]:
    try:
        return "shown", repr(plain(call()))
    except Exception as exc:  # noqa: BLE001 - whatever DRF raises
        # DRF's own error for what it cannot show: the compiled one must raise it too
        return "refused", type(exc)


# --- the renderer ----------------------------------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_compiled_answer_is_the_serializers_own(data: st.DataObject) -> None:
    # given a serializer of any supported fields and an object for it
    fields = data.draw(st.dictionaries(NAMES, declared(), min_size=1, max_size=5))
    serializer_class = build(fields)
    obj = data.draw(instance(fields))
    # when both show it
    compiled = outcome(lambda: renderer(serializer_class)(obj))
    drf = outcome(lambda: serializer_class(obj).data)
    # then the answer is the same, key order, types and nulls included (or both refuse it)
    assert compiled == drf


def test_a_compiled_answer_keeps_the_types_the_fields_declare() -> None:
    # given a serializer whose values all need converting
    class Inner(serializers.Serializer):
        at = serializers.DateTimeField()
        flag = serializers.BooleanField(required=False)

    class Outer(serializers.Serializer):
        n = serializers.IntegerField()
        name = serializers.CharField(source="label")
        inner = Inner(many=True)
        counts = serializers.DictField(child=serializers.IntegerField())
        colour = serializers.ChoiceField(choices=[(1, "one"), ("2", "two")])

    obj = {"n": True, "label": 5, "counts": {3: "4", "x": None}, "colour": "1",
           "inner": [SimpleNamespace(at=dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC), flag=1),
                     {"at": dt.datetime(2026, 1, 2, 3, 4, 5, 600, tzinfo=dt.UTC)}]}
    # when it is compiled and shown
    shown = renderer(Outer)(obj)
    # then it is what DRF shows
    assert shown == {"n": 1, "name": "5", "inner": [{"at": "2026-01-02T03:04:05Z", "flag": True},
                                                   {"at": "2026-01-02T03:04:05.000600Z"}],
                     "counts": {"3": 4, "x": None}, "colour": 1}
    assert json.dumps(shown) == json.dumps(Outer(obj).data)
    assert renderer(Outer) is renderer(Outer)  # compiled once per class


class _Shouting(serializers.CharField):
    def to_representation(self, value: Any) -> str:
        return str(value).upper()


class _OwnAnswer(serializers.Serializer):
    a = serializers.IntegerField()

    def to_representation(self, instance: Any) -> Any:
        return {"a": 0}


@pytest.mark.parametrize("field", [
    serializers.SerializerMethodField(), serializers.HyperlinkedIdentityField(view_name="x"), _Shouting(),
    serializers.ListField(child=_Shouting()), serializers.FileField(), _OwnAnswer(),
])
def test_a_field_the_compiler_cannot_reproduce_is_refused_when_compiled(field: serializers.Field) -> None:
    serializer_class = type(f"Refused{next(_names)}", (serializers.Serializer,), {"a": field})
    with pytest.raises(NotCompilable):
        renderer(serializer_class)


# --- the validator ---------------------------------------------------------------------------------------

INPUTS = {
    "integer": (lambda o: serializers.IntegerField(min_value=o["low"], max_value=o["high"], **o["common"]),
                st.integers(-5, 20) | st.booleans() | st.sampled_from(["3", 3.0, 4.5, "x"])),
    "char": (lambda o: serializers.CharField(max_length=o["high"],
                                             min_length=o["low"] if o["low"] > 0 else None,
                                             allow_blank=o["blank"], trim_whitespace=o["trim"],
                                             **o["common"]),
             st.text(max_size=8) | st.sampled_from([" a ", "", "\x00", "é", "a" * 30, 7, True])),
    "choice": (lambda o: serializers.ChoiceField(choices=CHOICES, allow_blank=o["blank"], **o["common"]),
               st.sampled_from([*CHOICES, "1", "2", "green", "", 1.0, True])),
    "boolean": (lambda o: serializers.BooleanField(**o["common"]),
                st.booleans() | st.sampled_from([0, 1, "true", "no", "x"])),
    "object": (lambda o: serializers.DictField(allow_empty=o["blank"], **o["common"]),
               st.dictionaries(st.text(max_size=3), st.none() | st.integers(-3, 3) | st.text(max_size=3)
                               | st.lists(st.integers(0, 3), max_size=2), max_size=3)
               | st.sampled_from([[], "x", 3, True, [("a", 1)]])),
}
WELL_FORMED = {
    "integer": lambda o: st.integers(max(o["low"] or 0, -5), o["high"] if o["high"] is not None else 20),
    "char": lambda o: st.text(st.characters(min_codepoint=33, max_codepoint=126),
                              min_size=max(o["low"], 0 if o["blank"] else 1), max_size=o["high"] or 8),
    "choice": lambda o: st.sampled_from(["red", "blue", "1", "2"]),
    "boolean": lambda o: st.booleans(),
    "object": lambda o: st.dictionaries(st.text(max_size=3),
                                        st.none() | st.integers(-3, 3) | st.text(max_size=3),
                                        min_size=0 if o["blank"] else 1, max_size=3),
}


@st.composite
def input_declared(draw: Any, depth: int = 0) -> dict[str, Any]:
    kind = draw(st.sampled_from([*INPUTS] + (["nested"] if depth < 2 else [])))
    low = draw(st.sampled_from([None, 0, 2]))
    options = {"low": low if kind == "integer" else (low or 0), "high": draw(st.sampled_from([None, 5, 12])),
               "blank": draw(st.booleans()), "trim": draw(st.booleans())}
    if kind == "char" and options["high"] is not None and options["low"] > options["high"]:
        options["high"] = None
    common: dict[str, Any] = {"allow_null": draw(st.booleans())}
    presence = draw(st.sampled_from(["required", "optional"] + ([] if kind == "nested" else ["default"])))
    spec = {"kind": kind, "options": options, "common": common, "presence": presence}
    if kind == "nested":
        spec["fields"] = draw(st.dictionaries(NAMES, input_declared(depth + 1), min_size=1, max_size=3))
    elif presence == "default":
        common["default"] = draw(WELL_FORMED[kind](options))
    if presence == "optional":
        common["required"] = False
    return spec


def build_input(fields: dict[str, dict[str, Any]]) -> type[serializers.Serializer]:
    attrs = {}
    for name, spec in fields.items():
        if spec["kind"] == "nested":
            nested = {k: v for k, v in spec["common"].items() if k != "default"}
            attrs[name] = build_input(spec["fields"])(**nested)
        else:
            attrs[name] = INPUTS[spec["kind"]][0]({**spec["options"], "common": spec["common"]})
    return type(f"Input{next(_names)}", (serializers.Serializer,), attrs)


@st.composite
def body(draw: Any, fields: dict[str, dict[str, Any]], *, well_formed: bool) -> Any:
    if not well_formed and draw(st.integers(0, 15)) == 0:
        return draw(st.sampled_from([[], "x", None, 3]))
    data = {}
    for name, spec in fields.items():
        if not well_formed and draw(st.integers(0, 6)) == 0:
            continue
        if well_formed and spec["presence"] != "required" and draw(st.booleans()):
            continue
        if not well_formed and draw(st.integers(0, 8)) == 0:
            data[name] = None
        elif spec["kind"] == "nested":
            data[name] = draw(body(spec["fields"], well_formed=well_formed))
        else:
            values = WELL_FORMED[spec["kind"]](spec["options"]) if well_formed else INPUTS[spec["kind"]][1]
            data[name] = draw(values)
    if not well_formed and draw(st.booleans()):
        data["extra"] = 1
    return data


def judged(serializer_class: type[serializers.Serializer], data: Any) -> tuple[str, Any]:
    try:
        return "valid", repr(plain(validated(serializer_class, data)))
    except ValidationError as exc:
        return "invalid", exc.detail


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_compiled_input_check_accepts_only_what_the_serializer_accepts(data: st.DataObject) -> None:
    # given an input serializer and a body, well-formed or not
    fields = data.draw(st.dictionaries(NAMES, input_declared(), min_size=1, max_size=4))
    serializer_class = build_input(fields)
    sent = data.draw(body(fields, well_formed=data.draw(st.booleans())))
    # when the compiled check and the serializer judge it
    fast, drf = validator(serializer_class).fast(sent), judged(serializer_class, sent)
    # then what the fast check accepts the serializer accepts, to the same values in the same order
    if fast is not None:
        assert drf == ("valid", repr(plain(fast)))
    # and the validator's answer is the serializer's in every case
    try:
        assert ("valid", repr(plain(validator(serializer_class)(sent)))) == drf
    except ValidationError as exc:
        assert ("invalid", exc.detail) == drf


@settings(max_examples=200)
@given(st.data())
def test_a_well_formed_input_takes_the_compiled_check(data: st.DataObject) -> None:
    # given a body of the declared shape, plain values only
    fields = data.draw(st.dictionaries(NAMES, input_declared(), min_size=1, max_size=4))
    serializer_class = build_input(fields)
    sent = data.draw(body(fields, well_formed=True))
    # when it is checked, then the serializer is not needed
    fast = validator(serializer_class).fast(sent)
    assert fast is not None
    assert judged(serializer_class, sent) == ("valid", repr(plain(fast)))


def test_the_battle_actions_usual_body_takes_the_compiled_check() -> None:
    # the hottest input (issue 13): a checked body is what the serializer makes of it
    sent = {"turn": 3, "action": {"kind": "attack", "target": "e1"}, "idempotency_key": "k-1"}
    assert validator(BattleActInput).fast(sent) == validated(BattleActInput, sent)
    assert validator(BattleActInput).fast({"turn": 3, "action": {"kind": "attack", "target": " e1 "}}) is None


def test_a_match_actions_usual_body_takes_the_compiled_check() -> None:
    # a match's action is a free JSON object, taken as it is
    sent = {"turn": 3, "action": {"type": "capture", "cell": [2, 5]}, "idempotency_key": "k-1"}
    assert validator(MatchActInput).fast(sent) == validated(MatchActInput, sent)
    assert validator(MatchActInput).fast({"turn": 3, "action": ["capture"]}) is None


class _Checked(serializers.Serializer):
    a = serializers.IntegerField()

    def validate_a(self, value: int) -> int:
        return value


@pytest.mark.parametrize("serializer_class", [
    _Checked,
    type("WithValidators", (serializers.Serializer,),
         {"a": serializers.IntegerField(validators=[lambda value: None])}),
    type("WithSource", (serializers.Serializer,), {"a": serializers.IntegerField(source="b")}),
    type("WithDecimal", (serializers.Serializer,),
         {"a": serializers.DecimalField(max_digits=4, decimal_places=1)}),
    type("WithCallableDefault", (serializers.Serializer,), {"a": serializers.IntegerField(default=int)}),
])
def test_an_input_check_the_compiler_cannot_reproduce_is_refused_when_compiled(serializer_class: Any) -> None:
    with pytest.raises(NotCompilable):
        validator(serializer_class)


def test_plain_turns_drfs_containers_into_plain_ones() -> None:
    assert repr(plain(OrderedDict(a=[OrderedDict(b=1)]))) == "{'a': [{'b': 1}]}"
