"""How the paho clients are set up for the broker (``companion/core/broker_url.py`` reads the
address): the largest packet each takes (board and hub); the hub's user, password and CA file
come from the config file's ``[club]`` only. And how one is taken down (``stop_client``)."""

from __future__ import annotations

import ssl
from typing import Any

from companion.core.broker_url import BrokerAddress


class BrokerError(ValueError):
    """A broker setting that cannot be used, as one line for the user."""


def connect_properties(max_packet: int) -> Any:
    """MQTT 5's CONNECT properties: the largest packet this client takes (the broker drops
    anything larger instead of sending it)."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    properties = Properties(PacketTypes.CONNECT)
    properties.MaximumPacketSize = max_packet
    return properties


def configure(client: Any, address: BrokerAddress, club: Any = None) -> None:
    """Credentials and TLS on a paho ``Client`` from the ``[club]`` config (``ClubConfig``)."""
    user = getattr(club, "user", "") or ""
    password = getattr(club, "password", "") or ""
    ca_file = getattr(club, "ca_file", "") or ""
    if user:
        client.username_pw_set(user, password or None)
    if address.tls:
        try:
            context = ssl.create_default_context(cafile=ca_file or None)
        except (OSError, ssl.SSLError) as e:
            raise BrokerError(f"[club] ca_file {ca_file!r}: {e.strerror or e}") from None
        client.tls_set_context(context)


def stop_client(client: Any) -> None:
    """Disconnect a client started with ``loop_start`` and stop its thread, and close the
    socket pair ``loop_start`` made to wake that thread: paho closes the pair only when the
    client object is finalised, and a client caught in a reference cycle can be finalised
    after its sockets (two unclosed loopback sockets, a ResourceWarning)."""
    client.disconnect()
    client.loop_stop()
    reset = getattr(client, "_reset_sockets", None)  # paho 2: no public way to close it
    if reset is not None:
        reset()
