"""Club night: boards publish their public table to an MQTT broker, a hub shows every board,
runs tournaments and relays remote play (docs/club.md)."""
