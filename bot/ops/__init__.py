"""Operations: what an operator watches (metrics, health, structured logs), issue 21.

What it is: ``metrics`` (the Prometheus metrics and the few calls the floors make, like logging),
``logs`` (the JSON log format and the game/guild/shard context set at the seams), ``server`` (the
one small HTTP server for ``/metrics``, ``/healthz`` and ``/readyz``).
What it is not: no Discord (the client hands it what it needs), no SQL (the client hands it the
database check and the game counts), nothing of the domain: every floor may import it, it imports
none of them.
"""
