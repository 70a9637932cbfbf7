"""Validating answers against the OpenAPI schema the server publishes (the contract tests of SPEC 14)."""
from __future__ import annotations

from typing import Any

from django.test import Client
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012


def served_schema(client: Client) -> dict[str, Any]:
    """The OpenAPI 3.0 document as served."""
    schema: dict[str, Any] = client.get("/api/schema/", {"format": "json"}).json()
    return schema


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as a JSON Schema ``anyOf`` with the null type (what clients and
    validators such as schemathesis read it as)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") is True else out


def validator(schema: dict[str, Any], component: str) -> Draft202012Validator:
    """A validator of one component of ``schema`` (a JSON Schema reading of the document), $refs resolved."""
    registry: Registry[Any] = Registry().with_resource("urn:api", DRAFT202012.create_resource(schema))
    return Draft202012Validator({"$ref": f"urn:api#/components/schemas/{component}"}, registry=registry)


def errors(check: Draft202012Validator, value: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}"[:300] for e in check.iter_errors(value)]
