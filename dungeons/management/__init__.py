"""Management commands of the dungeons app."""
