"""Find the Croupier board among the serial ports, by the USB IDs of common ESP32 bridges."""
from croupier.link import LinkError

# (vendor id, product id or None for any product of the vendor) -> what it is
ESP32_BRIDGES = {
    (0x10C4, 0xEA60): "CP210x",
    (0x10C4, 0xEA70): "CP2105",
    (0x1A86, 0x7523): "CH340",
    (0x1A86, 0x5523): "CH341",
    (0x1A86, 0x55D4): "CH9102",
    (0x1A86, 0x55D3): "CH343",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6010): "FTDI FT2232",
    (0x0403, 0x6015): "FTDI FT231X",
    (0x303A, None): "Espressif native USB",
}


def bridge_name(vid, pid):
    """The bridge an ESP32 board is reached through, or None for any other USB device."""
    if vid is None:
        return None
    return ESP32_BRIDGES.get((vid, pid)) or ESP32_BRIDGES.get((vid, None))


def list_ports():
    """Every serial port as (device, bridge name or None, description), sorted by device."""
    from serial.tools import list_ports as lp

    found = []
    for info in lp.comports():
        found.append((info.device, bridge_name(info.vid, info.pid), info.description or ""))
    return sorted(found)


def choose_board(ports):
    """The device of the only recognised board in `ports`, else a LinkError saying why."""
    boards = [device for device, bridge, _ in ports if bridge]
    if len(boards) == 1:
        return boards[0]
    if not boards:
        raise LinkError("no ESP32 board found on USB (run `croupier ports`); plug one in, "
                        "or pass --port PATH, a pyserial URL, or --port sim for a virtual board")
    raise LinkError("several ESP32 boards found (%s): choose one with --port" % ", ".join(boards))


def pick_board():
    return choose_board(list_ports())

