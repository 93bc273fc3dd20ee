"""Secret discs on the players' phones: a small web page served on the local network."""

from companion.phones.network import lan_address
from companion.phones.server import PhoneServer

__all__ = ["PhoneServer", "lan_address"]
