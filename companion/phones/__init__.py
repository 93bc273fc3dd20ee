"""Secret discs on the players' phones: a small web page served on the local network."""

from companion.phones.server import PhoneServer, lan_address

__all__ = ["PhoneServer", "lan_address"]
