# Minimal TCS34725 driver for short, beam-gated reads.
# The sensor integrates continuously in 2.4 ms cycles (ATIME=0xFF); with the
# persistence filter at 0 every finished cycle sets AINT, so the loop can tell
# a fresh cycle from one it has already read without wiring the INT pin.
# (Enabling AEN only when the beam breaks would add a 2.4 ms start-up delay,
# half of the fastest transit.)

ADDRESS = 0x29
CMD = 0x80
AUTO_INC = 0x20
CLEAR_INT = 0xE6  # command + special function 0x06: clear the RGBC interrupt

ENABLE, ATIME, PERS, CONTROL, ID, STATUS, CDATAL = 0x00, 0x01, 0x0C, 0x0F, 0x12, 0x13, 0x14
PON, AEN, AIEN = 0x01, 0x02, 0x10
AINT = 0x10
KNOWN_IDS = (0x44, 0x4D)  # TCS34721/5 and TCS34723/7
GAINS = {1: 0, 4: 1, 16: 2, 60: 3}
CYCLE_US = 2400


class SensorError(Exception):
    pass


class TCS34725:
    def __init__(self, i2c, address=ADDRESS, gain=16):
        self.i2c = i2c
        self.address = address
        self.gain = gain

    def _write(self, reg, value):
        self.i2c.writeto_mem(self.address, CMD | reg, bytes((value,)))

    def _read(self, reg, n):
        return self.i2c.readfrom_mem(self.address, CMD | AUTO_INC | reg, n)

    def start(self):
        # Raises SensorError when the sensor does not answer or is not a TCS3472x.
        try:
            chip = self._read(ID, 1)[0]
        except OSError:
            # `from None`: MicroPython prints a warning (on the serial link) for any other cause
            raise SensorError(f"no TCS34725 answers at I2C address 0x{self.address:02X}") from None
        if chip not in KNOWN_IDS:
            raise SensorError(f"device at 0x{self.address:02X} has id 0x{chip:02X}, not a TCS3472x")
        try:
            self._write(ENABLE, PON)
            self._write(ATIME, 0xFF)  # one 2.4 ms cycle, counts up to 1024
            self._write(CONTROL, GAINS[self.gain])
            self._write(PERS, 0)  # every cycle raises AINT
            self._write(ENABLE, PON | AEN | AIEN)
            self.i2c.writeto(self.address, bytes((CLEAR_INT,)))
        except OSError:
            raise SensorError("TCS34725 stopped answering during set-up") from None

    def fresh(self):
        # The (r, g, b, c) of a cycle finished since the last call, or None.
        # Raises OSError when the bus fails.
        if not self._read(STATUS, 1)[0] & AINT:
            return None
        data = self._read(CDATAL, 8)
        self.i2c.writeto(self.address, bytes((CLEAR_INT,)))
        c = data[0] | data[1] << 8
        r = data[2] | data[3] << 8
        g = data[4] | data[5] << 8
        b = data[6] | data[7] << 8
        return (r, g, b, c)

    def discard(self):
        # Forget a cycle in progress so the next fresh() is a cycle that ends later.
        self.i2c.writeto(self.address, bytes((CLEAR_INT,)))
