"""Tests of every kind of database use, for ``--db-tests-only`` to sort (tests/test_workers.py collects
them)."""
from __future__ import annotations

import pytest
from django.test import SimpleTestCase, TestCase


def test_pure() -> None:
    assert True


def test_with_the_client_but_no_database(client) -> None:
    assert client


@pytest.mark.django_db
def test_marked() -> None:
    assert True


def test_with_db(db) -> None:
    assert True


@pytest.fixture
def world(db) -> int:
    return 1


def test_through_a_fixture(world: int) -> None:
    assert world


def test_with_a_live_server(live_server) -> None:
    assert live_server


def test_with_the_admin(admin_client) -> None:
    assert admin_client


@pytest.mark.per_database
def test_counting_a_database_run() -> None:
    assert True


class TestAModelCase(TestCase):
    def test_case(self) -> None:
        assert True


class TestASimpleCase(SimpleTestCase):
    def test_simple(self) -> None:
        assert True


@pytest.fixture
def serial_live_server(transactional_db) -> str:
    return "http://localhost"


def test_a_page(serial_live_server) -> None:
    assert serial_live_server
