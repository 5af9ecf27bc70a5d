"""Parsing of ledger files into entries.

The module reads a ledger and yields Entry values.
"""

import os
import os.path as osp
from abc import ABCMeta, abstractmethod
from dataclasses import dataclass, field
from typing import Iterator, Optional

from .base import Base
from .errors import LedgerError

MAX_ENTRIES = 10_000
DEFAULT_CURRENCY: str = "EUR"
_cache = {}
verbose = False


@dataclass
class Entry:
    """One line of the ledger."""

    date: str
    amount: float
    memo: Optional[str] = None

    def signed(self) -> float:
        return -self.amount if self.memo == "refund" else self.amount


class Parser(Base, metaclass=ABCMeta):
    """Reads entries from a file.

    Subclasses override read_header.
    """

    def __init__(self, path: str, strict: bool = False):
        self.path = path
        self.strict = strict

    @abstractmethod
    def read_header(self, lines: list) -> dict:
        """Parse the header block."""

    def parse(self, data: bytes) -> Iterator[Entry]:
        text = data.decode("utf-8")
        header = self.read_header(text.splitlines())

        def clean(line):
            return line.strip()

        for line in text.splitlines():
            line = clean(line)
            if not line:
                continue
            yield _make_entry(line, header)

    def _check(self):
        if not osp.exists(self.path):
            raise LedgerError(self.path)


def _make_entry(line: str, header: dict) -> Entry:
    # split on the first two spaces
    date, amount, memo = line.split(" ", 2)
    return Entry(date=date, amount=float(amount), memo=memo or None)


async def load(path: str, *, limit: int = MAX_ENTRIES) -> list[Entry]:
    """Load at most limit entries from path."""
    with open(os.fspath(path), "rb") as fh:
        data = fh.read()
    entries = list(Parser(path).parse(data))
    return entries[:limit]


def total(entries):
    return sum(e.signed() for e in entries)
