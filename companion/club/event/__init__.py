"""Tournaments of club night (docs/club.md, *Tournaments*): the event file (``spec``), round
robin by the FIDE Berger tables (``berger``), Swiss by the FIDE Dutch system (``swiss``), the
event's rounds, results and the arbiter's corrections (``tournament``), standings and their
tie-breaks (``standings``), all pure; the event's SQLite file (``store``) is the only I/O."""
