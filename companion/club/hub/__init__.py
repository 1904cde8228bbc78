"""The club's hub (``binaryon club``, docs/club.md): ``state`` (the boards, from what they
publish), ``store`` (results in SQLite), ``link`` (the broker, paho), ``feed`` (the pages'
WebSockets), ``club`` (all of it together), ``web`` (pages and API), ``run`` (the process)."""
