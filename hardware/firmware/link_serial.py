# USB serial link: lines in, frames out, a bounded number of bytes per pass so
# that a slow host never stretches the sensing loop.
from link import LineAssembler, Link


class SerialLink(Link):
    def __init__(self, device, read, write, budget=512):
        # read() -> bytes available now (b"" or None when nothing); never blocks.
        # write(bytes) -> None; may drop bytes when no host is listening.
        super().__init__(device, "serial")
        self.read = read
        self.write = write
        self.budget = budget
        self.assembler = LineAssembler()

    def step(self):
        data = self.read()
        if data:
            lines = []
            self.assembler.feed(data, lines)
            for kind, line in lines:
                if kind == "too_long":
                    self.device.too_long(self)
                elif line.strip():  # blank lines are keep-alives
                    self.device.handle_line(line, self)
        sent = 0
        while sent < self.budget:
            item = self.next_frame()
            if item is None:
                break
            out = item[1].encode() + b"\n"
            self.write(out)
            sent += len(out)
