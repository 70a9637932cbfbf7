"""App config for the balancing lab."""
from django.apps import AppConfig


class BalanceConfig(AppConfig):
    name = "balance"
    verbose_name = "Balancing lab"
