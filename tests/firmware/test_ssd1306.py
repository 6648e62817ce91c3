"""Our SSD1306 driver on the MicroPython unix port, its I2C transactions replayed into the
virtual board's controller model (croupier.sim.oled): what the panel shows must be the
framebuffer, and show() must send only what changed."""
import json

from croupier.sim.oled import SSD1306 as Panel

# Bytes of a run's transaction besides its data: the column and page address commands, six
# bytes each behind a control byte with Co set, then the data's control byte.
WINDOW = 6 * 2 + 1

DRIVER = r'''
import json
from croupier.ssd1306 import SSD1306

class Bus:  # records every write transaction; the panel model replays them on the host
    def __init__(self):
        self.log = []
    def writeto(self, addr, buf, stop=True):
        self.log.append([addr, bytes(buf).hex()])
    def writevto(self, addr, vector, stop=True):
        self.log.append([addr, b"".join(bytes(b) for b in vector).hex()])

bus = Bus()
d = SSD1306(bus, 0x3C)
steps = []
def step(name, sent):
    steps.append({"name": name, "sent": sent, "writes": bus.log[:], "fb": bytes(d.buffer).hex()})
    bus.log.clear()
step("init", 1024)
step("unchanged", d.show())
d.pixel(0, 0, 1)
step("one pixel", d.show())
d.text("77", 112, 56, 1)
step("text at the right edge", d.show())
d.fill_rect(40, 10, 30, 20, 1)
step("a block over 3 pages", d.show())
d.pixel(3, 40, 1)
d.pixel(90, 40, 1)
step("two far apart on one page", d.show())
d.fill_rect(40, 10, 30, 20, 0)
d.fill_rect(40, 10, 30, 20, 1)
step("redrawn the same", d.show())
d.fill(0)
step("cleared", d.show())
d.fill(1)
step("everything", d.show())
print(json.dumps(steps))
'''


def test_show_sends_only_changed_columns_and_the_panel_matches(mpy):
    steps = {s["name"]: s for s in json.loads(mpy(DRIVER))}
    panel = Panel()

    def replay(step):
        before = panel.bytes_received
        for addr, hexdata in step["writes"]:
            assert addr == 0x3C
            panel.write(bytes.fromhex(hexdata))
        return panel.bytes_received - before

    assert replay(steps["init"]) >= 1024
    assert panel.glass() == bytes.fromhex(steps["init"]["fb"])
    assert steps["unchanged"]["writes"] == [] and steps["unchanged"]["sent"] == 0
    for name, data_bytes, windows in (("one pixel", 8, 1), ("text at the right edge", 16, 1),
                                      ("a block over 3 pages", 3 * 32, 1),  # one window
                                      ("two far apart on one page", 16, 2),
                                      ("redrawn the same", 0, 0)):
        step = steps[name]
        on_bus = replay(step)
        assert step["sent"] == data_bytes, name
        assert len(step["writes"]) == windows, name  # one transaction: window and data
        assert on_bus == windows * WINDOW + data_bytes, name
        assert panel.glass() == bytes.fromhex(step["fb"]), name
    replay(steps["cleared"])
    assert panel.glass() == bytes(1024)
    assert replay(steps["everything"]) == 8 * (WINDOW + 128)
    assert panel.glass() == b"\xff" * 1024


NO_ALLOC = r'''
import micropython
from croupier.ssd1306 import SSD1306

class Bus:  # counts bytes only, so that the heap can stay locked
    n = 0
    def writeto(self, addr, buf, stop=True):
        self.n += len(buf)

def run():
    bus = Bus()
    d = SSD1306(bus)
    d.text("40", 0, 0, 1)
    before = bus.n
    micropython.heap_lock()  # show() must not allocate
    try:
        sent = d.show()
        sent += d.show()
    finally:
        micropython.heap_unlock()
    print(sent, bus.n - before)
run()
'''


def test_show_never_allocates(mpy):
    sent, on_bus = map(int, mpy(NO_ALLOC).split())
    assert sent == 16 and on_bus == WINDOW + 16  # "40": 16 columns, one window, nothing the 2nd time


CONTAINERS = r'''
import json
from croupier.ssd1306 import SSD1306

class Bus:
    def writeto(self, addr, buf, stop=True):
        pass

d = SSD1306(Bus(), 0x3C)
sizes = []
def walk(value):
    if isinstance(value, (list, tuple)):
        sizes.append(len(value))
        for item in value:
            walk(item)
for value in d.__dict__.values():
    walk(value)
print(json.dumps(sizes))
'''


def test_no_list_of_the_driver_holds_more_objects_than_the_gc_mark_stack(mpy):
    """MicroPython's collector marks through a stack of 64 entries; a list of more fresh
    objects overflows it, and every collection then makes another pass over the whole heap
    (the driver's 128 chunk views in one list made a collection of the firmware's heap 1.7
    times as long)."""
    sizes = json.loads(mpy(CONTAINERS).strip().splitlines()[-1])
    assert sizes and max(sizes) <= 64, sizes
