"""Source: where a piece of effect code sits in its file, to give its errors file positions."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..errors import Pos


@dataclass(frozen=True)
class Source:
    """Where a piece of effect code sits in its file, to give errors file positions.

    spots: the file (line, col) of every character of the code, when the loader knows them (it
    does for every YAML string, whatever its style: plain, quoted with escapes, literal or folded
    block). Without spots: line, col is the file position of the code's first character, and
    block says the code is a YAML block scalar whose every line is indented by col-1 (otherwise
    only the first line is shifted).
    """

    file: str
    line: int = 1
    col: int = 1
    block: bool = False
    spots: Optional[tuple] = field(default=None, compare=False, repr=False)

    def pos(self, line: int, col: int) -> Pos:
        if self.block or line == 1:
            col = col + self.col - 1
        return Pos(self.file, self.line + line - 1, col)

    def at(self, offset: Optional[int], line: int = 1, col: int = 1) -> Pos:
        """The file position of the code's character at offset (line, col: the same place in the
        code, used when the spots are not known). An offset at the end points just after the code."""
        spots = self.spots
        if spots and offset is not None and offset >= 0:
            if offset < len(spots):
                ln, cl = spots[offset]
            else:
                ln, cl = spots[-1]
                cl += 1
            return Pos(self.file, ln, cl)
        return self.pos(line, col)

    def sub(self, offset: int, line: int, col: int) -> "Source":
        """The Source of a piece of this code starting at offset (the code of a "{...}" in a string)."""
        if self.spots:
            p = self.at(offset)
            return Source(self.file, p.line, p.col, spots=self.spots[offset:])
        p = self.pos(line, col)
        return Source(self.file, p.line, p.col)
