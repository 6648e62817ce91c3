"""The virtual board's side channel (VirtualBoard's emulated hardware): a unix socket the
board connects to at each start; its end is mpy/_sim_channel.py, the messages are
croupier.sim.channel's."""
import socket
import struct
import time

from croupier.sim import channel, toolchain

SIDE_DEADLINE = 5.0  # seconds the board may take to read a side-channel message
LOGICAL_KEYS = {"ok": "#", "undo": "*", "menu": "D"}  # and a key's label, any case


class SideChannel:
    """Mixed into VirtualBoard; its handlers run on the I/O thread under its lock."""

    def key_bit(self, key: str) -> int:
        label = LOGICAL_KEYS.get(key, key.upper() if len(key) == 1 else key)
        if label not in self.labels:
            raise ValueError("no key %r on the keypad (labels: %s)" % (key, " ".join(self.labels)))
        return 1 << self.labels.index(label)

    def key_down(self, key):
        self._set_key(key, True)

    def key_up(self, key):
        self._set_key(key, False)

    def press(self, key, ms=100, gap=60):
        """Hold a key for ms milliseconds, release it and wait gap ms (real debounce timing)."""
        self.key_down(key)
        time.sleep(ms / 1000)
        self.key_up(key)
        time.sleep(gap / 1000)

    @property
    def keys_down(self):
        return [label for i, label in enumerate(self.labels) if self._keys >> i & 1]

    @property
    def i2c_bytes(self):
        """Bytes written to the OLED over I2C so far, control bytes included."""
        return self.oled.bytes_received

    def glass(self) -> bytes:
        """The OLED as seen on the glass: 1024 bytes in page order, like the `screen` command."""
        with self._lock:
            return self.oled.glass()

    @property
    def tones(self):
        """[(t_ms since start(), freq, duty_u16), ...]: every PWM change; duty 0 = silent."""
        with self._lock:
            return list(self._tones)

    def _on_accept(self):
        conn, _ = self._listener.accept()
        if self._side is not None:
            self._selector.unregister(self._side)
            self._side.close()
        conn.settimeout(SIDE_DEADLINE)  # a stuck board must not hang the host
        self._side = conn
        self._decoder = channel.Decoder()
        self._register(conn, self._on_side)
        self._keys_since = None  # a new interpreter: the state it starts with has no length
        self._send(channel.keys(self._keys))
        if self._cut:
            self._send(self._cut)

    def _on_side(self):
        try:
            data = self._side.recv(65536)
        except OSError:
            data = b""
        if not data:
            self._selector.unregister(self._side)
            self._side.close()
            self._side = None
            return
        for kind, arg, length, payload in self._decoder.feed(data):
            self._on_message(kind, arg, length, payload)

    def _on_message(self, kind, arg, length, payload):
        if kind == channel.BOOTED:
            if self.throttle:
                self.throttle.start()
            self._send(channel.reply(0))
            self._ready = True
            self.boots += 1
            self._emit("boot", self.boots)
        elif kind in (channel.I2C_WRITE, channel.I2C_READ):  # length: the bytes written or wanted
            device = self.rtc if self.rtc and arg == self.rtc.address else self.oled
            # its time on the bus: 9 clocks a byte, the address too (as machine.SoftI2C sleeps it)
            self.bus_us += (length + 1) * 9 * 1e6 / self._pins["i2c"]["freq"]
            if kind == channel.I2C_READ:
                self._send(channel.reply(0, device.read(length)))
            else:
                device.write(payload)
                if device is self.oled:
                    self._emit("display")
        elif kind == channel.TONE:
            freq, duty = struct.unpack("<IH", payload)
            self._tones.append((int((time.monotonic() - self._t0) * 1000), freq, duty))
            self._emit("tone", (freq, duty))
        elif kind == channel.HELLO:
            self._send(channel.reply(0))  # after the state sent on connect: the board has it all
        elif kind == channel.FLASH_WRITE:
            self.flash_writes += 1
            self.flash_us += length
        elif kind == channel.POWER_CUT:
            self._cut = None
            self._kill()
        elif kind == channel.RESET and not self._killing:  # not from one the supervisor already stopped
            self._spawn_request = ("friendly", channel.SOFT_RESET)  # esp_restart(): ESP_RST_SW
            self._kill()
        elif kind == channel.RTC_SET:
            self._rtc = payload.decode()
        elif kind == channel.FORMATTED:
            self.formats += 1
        elif kind == channel.I2S_WRITE:
            self.audio.write(arg & 1, payload, arg & 0x80)
        elif kind == channel.I2S_ON:
            self.audio.turn_on(arg & 1, *struct.unpack("<IBBI", payload))
        elif kind == channel.I2S_OFF:
            self.audio.turn_off(arg & 1, keep_dma=arg & 0x80)
            self._send(channel.reply(0))

    def _send(self, message: bytes) -> bool:
        """-> False when the board has not taken the message within SIDE_DEADLINE s."""
        if self._side is not None:
            try:
                self._side.sendall(message)
            except socket.timeout:
                return False  # alive but not reading: the firmware is stuck
            except OSError:
                pass  # the interpreter is going away; the next one gets the state on connect
        return True

    def _set_key(self, key, down):
        bit = self.key_bit(key)
        with self._lock:
            self._keys = self._keys | bit if down else self._keys & ~bit
            now = time.monotonic()
            lasted = 0.0 if self._keys_since is None else now - self._keys_since
            self._keys_since = now
            if not self._send(channel.keys(self._keys, lasted)):
                raise toolchain.SimError("the board has not read its keypad for %g s: is the firmware stuck? "
                                         "(last output: %r)" % (SIDE_DEADLINE, self.output()[-200:]))
