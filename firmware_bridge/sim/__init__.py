"""A simulated Castillo tower that speaks protocol v1 as hardware/firmware does.

Same frames, same replies, same faults as device.py, link.py, link_serial.py
and link_mqtt.py: `hello`, `drop`, `totals`, `hb`, `fault`, `ok`; a ring of 256
drops with per-link cursors, acks, `replay` (with `replay_gap`), `totals_req`,
`empty` (idempotent by token), `identify`; `reboot()` draws a new boot id and
keeps the totals. Not simulated: the beam and the colour sensor (drops are
made by `drop(colour)`). Calibration is taught as on the firmware (1.2): after
`calibrate` (with `keep`), each `drop(colour)` is a cube for the colour asked, never
a counted drop; `cal` frames say `drop` (got of need), `retry` (a "multi" throw),
`learnt` (the nearest colour and its distance, from modelled readings: REFS plus
the sensor's noise, the firmware's features and spreads) and `done`; the colours
taught are kept across `reboot()`. A colour dropped that is not calibrated comes
out `uncertain`; an added colour (purple, orange, white) travels in `xcol`/`xbest`
as the firmware sends it.

Its parts: `tower` (the state, the frames made from it, and `SimPort`, one link's queue and
cursor), `commands` (the host's lines, one handler per command), `sensor` (the modelled colour
readings), and the ports it runs on, any number at once:
- `InProcessPort` (inprocess_port.py): frames handed to a function, pumped by the caller (unit tests);
- `PtyPort` (pty_port.py): a virtual serial port (os.openpty), optionally paced to a baud rate;
- `MqttPort` (mqtt_port.py): paho-mqtt with the topic layout, retained state and Last Will of
  PROTOCOL.md section 2.2, reconnecting with backoff like link_mqtt.py.
"""

from firmware_bridge.sim.inprocess_port import InProcessPort
from firmware_bridge.sim.mqtt_port import MqttPort
from firmware_bridge.sim.pty_port import PtyPort
from firmware_bridge.sim.tower import SimPort, SimulatedTower

__all__ = ["InProcessPort", "MqttPort", "PtyPort", "SimPort", "SimulatedTower"]
