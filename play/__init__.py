"""Browser pages that play hosted matches through the public REST API (plain HTML, CSS, JS modules)."""
