"""Guilds, membership rules, applications, invitations, votes, activity and rank."""
