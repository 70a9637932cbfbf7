"""Signals of the guilds app, for apps built on it (guilds imports none of them).

``guild_created(sender=Guild, guild=...)``: sent by ``guild_create`` inside its transaction, after the
guild row and the founder's membership are written. A receiver's writes commit or roll back with the
guild; an exception it raises refuses the creation. The Labyrinth of Darkness (``darkness/apps.py``)
connects here to give each new guild its maze (SPEC 9.5).
"""
from __future__ import annotations

from django.dispatch import Signal

guild_created = Signal()
