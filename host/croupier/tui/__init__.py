"""The box in a terminal: its face (widgets), the app around it, the mirror of a board on a serial port."""
