"""The companion's voice: speech out through espeak-ng (``speech``, ``sinks``, ``queue``), the
words it says for a game's events (``words``), and commands by voice through pocketsphinx
(``grammar``, ``microphone``, ``listener``). A view: it turns what the table is told into
speech; the daemon feeds it (not yet wired in)."""
