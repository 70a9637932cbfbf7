"""The character: profile, stats, purse, inventory, item catalog, carry rules."""
