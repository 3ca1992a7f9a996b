"""Writing files safely: a failed write leaves any existing file as it was."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_text_atomic(path, text: str) -> None:
    """Write text to path through a temporary file in the same folder, then rename it."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=str(path.parent or "."), prefix=".jux-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_json(data, path) -> None:
    """Write data as JSON, atomically."""
    write_text_atomic(path, json.dumps(data))
