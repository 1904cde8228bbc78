"""The broker the club tests run against is a real Mosquitto, and it can be killed and
started again on the same port."""

from companion.club.broker import stop_client
from tests.mosquitto import Listener


def test_a_retained_message_survives_a_new_subscriber_but_not_a_broker_restart(broker):
    import paho.mqtt.client as mqtt

    first = Listener(broker.url)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish("t/x", b"kept", qos=1, retain=True).wait_for_publish(10)
    first.wait_for(lambda heard: any(h.payload == b"kept" for h in heard))
    second = Listener(broker.url)  # subscribes later: the retained message comes to it
    heard = second.wait_for(lambda heard: any(h.topic == "t/x" for h in heard))
    assert [h.retain for h in heard if h.topic == "t/x"] == [True]
    stop_client(client)
    for listener in (first, second):
        listener.close()
    broker.kill()
    broker.start()  # no persistence: the retained message is gone
    third = Listener(broker.url)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish("t/y", b"after", qos=1).wait_for_publish(10)
    heard = third.wait_for(lambda heard: any(h.topic == "t/y" for h in heard))
    assert all(h.topic != "t/x" for h in heard)
    stop_client(client)
    third.close()
