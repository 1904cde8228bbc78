"""The firmware's LED current cap (boardfw/leds.py) under CPython: whatever frame and brightness
the host sends, the chain's estimated draw stays within the budget of the configured supply."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hardware import link_protocol as lp
from tests.firmware.test_logic import bench  # noqa: F401 - the fixture

MA_PER_LEVEL = 20 / 255  # mA per unit of channel level


def draw_ma(pixels):
    return sum(sum(px) for px in pixels) * MA_PER_LEVEL


channel = st.integers(0, 255)
frames = st.lists(st.tuples(channel, channel, channel), min_size=64, max_size=64)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frame=frames, level=channel, amps=st.sampled_from([0.5, 1.0, 2.0, 4.0]))
def test_the_chain_never_draws_more_than_its_supply_allows(bench, frame, level, amps):  # noqa: F811
    b = bench(LED_SUPPLY_AMPS=amps)
    b.run()
    b.send(lp.cmd_brightness("b", level))
    msgs = b.send(lp.cmd_leds_full("f", frame))
    assert any(isinstance(m, lp.Ack) and m.id == "f" for m in msgs)
    budget = int(amps * 1000) * 90 // 100 - 64
    assert b.pico.firmware.leds.budget == budget
    shown = b.pico.pixels
    assert draw_ma(shown) <= budget
    asked = [tuple(v * level // 255 for v in rgb) for rgb in frame]
    if draw_ma(asked) <= budget:
        assert shown == tuple(asked)  # under the budget: exactly what was asked
    else:  # over it: every channel scaled down by the same factor, close to the budget
        flat_shown = [v for px in shown for v in px]
        flat_asked = [v for px in asked for v in px]
        assert all(s <= a for s, a in zip(flat_shown, flat_asked, strict=True))
        assert draw_ma(shown) >= budget - 192 * MA_PER_LEVEL - 1
    b.close()


def test_full_white_at_full_brightness_is_capped_and_reported(bench):  # noqa: F811
    b = bench()  # LED_SUPPLY_AMPS = 2.0 as shipped
    b.run()
    b.send(lp.cmd_brightness("b", 255))
    b.send(lp.cmd_leds_full("w", [(255, 255, 255)] * 64))  # 3.84 A asked
    stat = [m for m in b.send(lp.CMD_STAT) if isinstance(m, lp.Stat)][0]
    assert int(stat.fields["led_budget"]) == 1736
    assert 1700 <= int(stat.fields["led_ma"]) <= 1736
    assert b.pico.leds[0] == (255, 255, 255)  # the frame is kept; only what is shown is capped
    assert draw_ma(b.pico.pixels) <= 1736
