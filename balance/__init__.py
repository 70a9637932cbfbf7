"""The balancing lab (SPEC 17): simulated runs over the admin's data, for designers."""
