"""The emulated `machine` module: ESP32 behaviour seen from a program on the board."""
import time

from mpremote_run import mpremote

PROGRAM = """
import machine, time
from machine import Pin, PWM, I2C, SoftI2C, RTC

def refused(fn):
    try:
        fn()
    except (ValueError, OSError) as e:
        return type(e).__name__
    return "accepted"

print("pin20", refused(lambda: Pin(20)))
print("out34", refused(lambda: Pin(34, Pin.OUT)))
print("in34", refused(lambda: Pin(34, Pin.IN)))
p = Pin(2, Pin.OUT, value=1)
print("readback", p.value(), p(), end=" ")
p.off(); print(p.value(), end=" "); p.on(); print(p.value())
print("float", Pin(5, Pin.IN).value(), Pin(5, Pin.IN, Pin.PULL_UP).value())
print("scan", I2C(0).scan(), SoftI2C(scl=Pin(22), sda=Pin(21)).scan())
print("nodev", refused(lambda: I2C(0, scl=Pin(22), sda=Pin(21)).writeto(0x3D, b"x")))
print("status", I2C(1, scl=22, sda=21).readfrom(60, 2))
buzzer = PWM(Pin(23), freq=440, duty_u16=0)
buzzer.duty_u16(32768)
buzzer.freq(880)
buzzer.deinit()
print("badfreq", refused(lambda: buzzer.freq(0)))
RTC().datetime((2030, 5, 17, 4, 12, 30, 0, 0))
print("cause", machine.reset_cause(), "uid", len(machine.unique_id()))
print("done")
"""


def test_pins_i2c_pwm_and_rtc(make_board):
    board = make_board(main=PROGRAM)
    out = board.wait_output(b"done").decode()
    for line in ("pin20 ValueError", "out34 ValueError", "in34 accepted", "readback 1 1 0 1",
                 "float 0 1", "scan [] [60]", "nodev OSError", "status b'@@'", "badfreq ValueError",
                 "cause 1 uid 6"):
        assert line in out, line
    deadline = time.monotonic() + 10  # the tones come on the side channel, the print on the serial port
    while len(board.tones) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [(f, d) for _, f, d in board.tones] == [(440, 0), (440, 32768), (880, 32768), (880, 0)]
    times = [t for t, _, _ in board.tones]
    assert times == sorted(times)

    board.hard_reset()  # the RTC keeps its time, the cause says how we got here
    board.wait_boot(2)
    got = mpremote(board.port, "exec", "import machine; print(machine.RTC().datetime()[:3], machine.reset_cause())")
    assert got.strip() == "(2030, 5, 17) 2"


def test_machine_reset_reboots_with_soft_reset_cause(make_board):
    board = make_board(main="import machine\nprint('cause', machine.reset_cause())\n"
                            "if machine.reset_cause() == machine.PWRON_RESET:\n    machine.reset()")
    board.wait_boot(2)
    out = board.wait_output(b"cause 5")
    assert out.count(b"cause 1") == 1 and board.crashes == 0


IRQ = """
import machine, time
from machine import Pin
for n in (32, 33, 25, 26):
    Pin(n, Pin.OUT, value=0)  # every row low: any key pulls its column low
col = Pin(27, Pin.IN, Pin.PULL_UP)
col.irq(lambda p: print("falling", p.value()), Pin.IRQ_FALLING)
print("armed")
for _ in range(400):
    machine.idle()
    time.sleep_ms(5)
"""


def test_pin_irq_fires_on_a_key_edge(make_board):
    board = make_board(main=IRQ)
    board.wait_output(b"armed")
    board.press("4", ms=60)  # row 2, column 1 (GPIO 27)
    board.wait_output(b"falling 0\r\n")  # print writes its words one at a time: the whole line
    time.sleep(0.2)
    assert board.output().count(b"falling") == 1  # one edge, one call


ROW_EDGES = """
import machine, time
from machine import Pin
rows = [Pin(n, Pin.OUT, value=0) for n in (32, 33, 25, 26)]
col = Pin(27, Pin.IN, Pin.PULL_UP)
edges = []
col.irq(lambda p: edges.append(p.value()), Pin.IRQ_FALLING | Pin.IRQ_RISING)
print("armed")
while not edges:
    machine.idle()
    time.sleep_ms(5)
rows[1].value(1)  # the pressed key's row, driven high as a scan drives it: its column follows
time.sleep_ms(5)
rows[1].value(0)
time.sleep_ms(5)
rows[2].value(1)  # another row: no pressed key joins it to the column
time.sleep_ms(5)
print("edges", edges)
"""


def test_a_row_driven_under_a_pressed_key_raises_its_columns_interrupt(make_board):
    """Driving the row of a pressed key moves its column, and the column's interrupt fires
    on each edge, as on the chip (a scan's own edges come while it runs). Looked at only
    when a key changed, a column's last level could be one a scan drove, and the change
    that followed at rest raised no interrupt."""
    board = make_board(main=ROW_EDGES)
    board.wait_output(b"armed")
    board.key_down("4")  # row 2, column 1 (GPIO 27)
    out = board.wait_output(b"]\r\n")
    board.key_up("4")
    assert b"edges [0, 1, 0]" in out, out
