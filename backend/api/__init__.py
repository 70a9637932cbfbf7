"""Shared REST plumbing: the error format, pagination and schema helpers."""
