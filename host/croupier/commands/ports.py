"""`croupier ports`: the serial ports, and which of them look like an ESP32 board."""
from croupier.commands.common import print_table, reports_errors

HELP = "list serial ports and the ESP32 boards among them"


def add_arguments(parser):
    pass


@reports_errors
def run(args):
    from croupier.ports import list_ports

    ports = list_ports()
    if not ports:
        print("no serial ports found (use --port sim for a virtual board)")
        return 0
    print_table("Serial ports", ["port", "ESP32 bridge", "description"],
                [(device, bridge or "-", description) for device, bridge, description in ports])
    return 0
