"""NPC kinds, rescue, and every NPC service."""
