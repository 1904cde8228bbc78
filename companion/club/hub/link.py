"""The hub's side of the broker: a paho client in its own network thread that hands every
message to the hub's asyncio loop (``call_soon_threadsafe``) and never touches the hub's state.

paho reconnects by itself (1 s, then backing off to 10 s) when the broker goes away, and the
hub subscribes again on every connection: the retained status, table and unacknowledged
results of every board then arrive again, so the hub needs nothing of its own to catch up.
The hub's own status (``<root>/hub/status``, retained) is its last will when it vanishes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from companion import package_version
from companion.club import topics
from companion.club.broker import configure, connect_properties, stop_client
from companion.core.broker_url import BrokerAddress

from .state import MAX_RESULT

log = logging.getLogger(__name__)

SUBSCRIPTIONS = ("status", "table", "moves", "results/#")
MAX_PACKET = MAX_RESULT + 16 * 1024  # the largest message the hub reads, and its topic
KEEPALIVE = 15  # seconds: how soon the broker notices a vanished hub (its will: offline)

# (topic, payload, retained) -> None, called in the hub's loop
OnMessage = Callable[[str, bytes, bool], None]
# (connected, a one-line reason) -> None, called in the hub's loop
OnConnection = Callable[[bool, str], None]


def hub_status(online: bool) -> bytes:
    return json.dumps(
        {"board": topics.HUB, "online": online, "version": package_version(), "sent": time.time()}
    ).encode()


class BrokerLink:
    def __init__(
        self,
        address: BrokerAddress,
        loop: asyncio.AbstractEventLoop,
        on_message: OnMessage,
        on_connection: OnConnection,
        club: Any = None,
        client_id: str = "",
    ):
        import paho.mqtt.client as mqtt

        self.address = address
        self.loop = loop
        self._on_message = on_message
        self._on_connection = on_connection
        # MQTT 5: the broker drops anything over MAX_PACKET instead of sending it to the hub
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5
        )
        configure(self.client, address, club)
        self.client.reconnect_delay_set(min_delay=1, max_delay=10)
        self.client.max_queued_messages_set(10_000)
        self.client.will_set(topics.hub_topic("status"), hub_status(False), qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_connect_fail = self._failed
        self.client.on_message = self._message
        self.connected = False

    def start(self) -> None:
        """Connect in the background: a broker that is down now is tried again until it is up."""
        self.client.connect_async(
            self.address.host,
            self.address.port,
            keepalive=KEEPALIVE,
            clean_start=True,
            properties=connect_properties(MAX_PACKET),
        )
        self.client.loop_start()

    def stop(self) -> None:
        """Say the hub is offline (retained), then disconnect."""
        if self.connected:
            info = self.client.publish(
                topics.hub_topic("status"), hub_status(False), qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)
        stop_client(self.client)

    def publish(self, topic: str, payload: bytes, retain: bool = False, qos: int = 1) -> None:
        """Queue a message (paho sends it when connected; QoS 1 is kept across a reconnection)."""
        self.client.publish(topic, payload, qos=qos, retain=retain)

    # --- paho's network thread: hand over to the loop, nothing else ---
    def _connected(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            self._post(self._on_connection, False, f"broker refused the hub: {reason_code}")
            return
        client.subscribe([(topics.all_boards(kind), 1) for kind in SUBSCRIPTIONS])
        client.publish(topics.hub_topic("status"), hub_status(True), qos=1, retain=True)
        self._post(self._on_connection, True, f"connected to {self.address}")

    def _disconnected(self, client, userdata, flags, reason_code, properties=None) -> None:
        self._post(self._on_connection, False, f"lost {self.address}: {reason_code}")

    def _failed(self, client, userdata) -> None:
        self._post(self._on_connection, False, f"cannot reach {self.address}")

    def _message(self, client, userdata, message) -> None:
        self._post(self._on_message, message.topic, bytes(message.payload), bool(message.retain))

    def _post(self, fn: Callable[..., None], *args: Any) -> None:
        if fn is self._on_connection:
            self.connected = bool(args[0])
        with contextlib.suppress(RuntimeError):  # the loop has closed: the hub is stopping
            self.loop.call_soon_threadsafe(fn, *args)
