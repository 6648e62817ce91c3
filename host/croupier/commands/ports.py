"""`croupier ports`: the serial ports, which of them look like an ESP32 board, the virtual
boards running, and the croupier command holding each port."""
from croupier.commands.common import print_table, reports_errors

HELP = "list serial ports, the ESP32 boards among them, the virtual boards running, and what holds each"


def add_arguments(parser):
    pass


@reports_errors
def run(args):
    from croupier.port_registry import holders, port_key, running_boards
    from croupier.ports import list_ports

    held = holders()
    ports, boards = list_ports(), running_boards()
    listed = {port_key(device) for device, _, _ in ports} | {port_key(board["port"]) for board in boards}
    # a port held but found by neither list (a URL, a test's board) is still someone's
    ports += [(key, None, "") for key in sorted(held) if key not in listed]
    if ports:
        print_table("Serial ports", ["port", "ESP32 bridge", "description", "held by"],
                    [(device, bridge or "-", description or "-", held.get(port_key(device), "-"))
                     for device, bridge, description in ports])
    if boards:
        print_table("Virtual boards", ["port", "link", "flash", "run by", "held by"],
                    [(board["port"], board["link"] or "-", board["flash"], "%s, pid %d" % (board["holder"], board["pid"]),
                      held.get(port_key(board["port"]), "-")) for board in boards])
    if not ports and not boards:
        print("no serial ports found, and no virtual board running (use --port sim for a virtual board)")
    return 0
