"""Line ends on the serial port, as an ESP32 sends them: text output (print,
sys.stdout.write, REPL results and echo, tracebacks) cooked to \\r\\n, bytes written to
sys.stdout.buffer (the firmware's protocol frames) unchanged."""
import serial

RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"


def test_raw_bytes_pass_unchanged_and_text_is_cooked(make_board):
    board = make_board()
    with serial.Serial(board.port, timeout=5) as port:
        port.write(b"\r\x01")
        assert port.read_until(RAW_PROMPT).endswith(RAW_PROMPT)
        port.write(b"import sys\n"
                   b"sys.stdout.buffer.write(b'@x\\n')\n"
                   b"print('a')\n"
                   b"sys.stdout.write('b\\nc\\n')\n"
                   b"print('d', file=sys.stderr)\n"
                   b"sys.stdout.buffer.write(b'e\\r\\n')\n"
                   b"sys.print_exception(ValueError('f'))\x04")
        assert port.read_until(b"\x04>") == (b"OK@x\na\r\nb\r\nc\r\nd\r\ne\r\n"
                                             b"ValueError: f\r\n\x04\x04>")


def test_friendly_repl_echo_results_and_tracebacks_end_lines_with_crlf(make_board):
    board = make_board(main="print('main ran')")
    with serial.Serial(board.port, timeout=5) as port:
        # Opening the port flushes its input, so it may have kept any part of the power-on
        # boot: let that boot reach the port, drop it, and read a whole boot after the EN button.
        board.wait_output(b">>> ")
        board.wait_sent()
        port.reset_input_buffer()
        board.hard_reset()
        boot = port.read_until(b">>> ")  # main.py's output, the banner, the first prompt
        assert boot.startswith(b"main ran\r\nMicroPython v") and boot.endswith(b'for more information.\r\n>>> ')
        port.write(b"import sys\r")
        assert port.read_until(b">>> ") == b"import sys\r\n>>> "
        port.write(b"sys.stdout.buffer.write(b'@x\\n')\r")  # the raw bytes, then the result: 3
        assert port.read_until(b">>> ") == b"sys.stdout.buffer.write(b'@x\\n')\r\n@x\n3\r\n>>> "
        port.write(b"1 / 0\r")
        assert port.read_until(b">>> ") == (b"1 / 0\r\nTraceback (most recent call last):\r\n"
                                            b'  File "<stdin>", line 1, in <module>\r\n'
                                            b"ZeroDivisionError: divide by zero\r\n>>> ")
        port.write(b"print('a'); _\r")  # `_` is still the last result, as on a board
        assert port.read_until(b">>> ") == b"print('a'); _\r\na\r\n3\r\n>>> "
