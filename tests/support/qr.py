"""QR codes read back as a phone's camera would: by zbar (Debian's libzbar0,
through pyzbar), from the pixels a terminal or a page shows.

A terminal's QR code is text: half blocks in colours set by SGR codes, or in
the terminal's own colours where none are set. ``terminal_pixels`` draws it
as a terminal with the given default colours would (a dark one: light text on
black; a light one: dark text on white), so a test can read it as it looks in
each.
"""

from __future__ import annotations

import re

#: grey levels of the SGR colours a QR code is drawn in: black and (bright) white
_SGR_GREY = {30: 0, 37: 230, 90: 100, 97: 255, 40: 0, 47: 230, 100: 100, 107: 255}
_SGR = re.compile(r"\x1b\[([0-9;]*)m")
#: how many modules a character cell stands for (across, down), by the glyph drawn in it: which of its two
#: halves show the foreground
_HALVES = {"\u2580": (True, False), "\u2584": (False, True), "\u2588": (True, True), " ": (False, False)}


def terminal_pixels(text: str, fg: int, bg: int, scale: int = 4) -> tuple[bytes, int, int]:
    """The 8-bit grey picture of ``text`` in a terminal whose default colours are ``fg`` on ``bg``: each
    character a column of two pixels (its upper and lower half), scaled up; lines padded with ``bg``."""
    rows: list[list[int]] = []
    for line in text.splitlines():
        if not any(ch in _HALVES and ch != " " for ch in line):
            continue  # a line of words, not of the code
        cur_fg, cur_bg = fg, bg
        top: list[int] = []
        bottom: list[int] = []
        pos = 0
        for m in _SGR.finditer(line + "\x1b[m"):
            for ch in line[pos:m.start()]:
                upper, lower = _HALVES.get(ch, (False, False))
                top.append(cur_fg if upper else cur_bg)
                bottom.append(cur_fg if lower else cur_bg)
            pos = m.end()
            for code in [int(c) for c in m.group(1).split(";") if c] or [0]:
                if code == 0:
                    cur_fg, cur_bg = fg, bg
                elif code == 39:
                    cur_fg = fg
                elif code == 49:
                    cur_bg = bg
                elif code in _SGR_GREY:
                    if 30 <= code <= 37 or 90 <= code <= 97:
                        cur_fg = _SGR_GREY[code]
                    else:
                        cur_bg = _SGR_GREY[code]
        rows += [top, bottom]
    width = max(len(r) for r in rows) + 8
    rows = [[bg] * 4 + r + [bg] * (width - 4 - len(r)) for r in rows]
    rows = [[bg] * width] * 4 + rows + [[bg] * width] * 4
    out = bytearray()
    for r in rows:
        line = bytes(v for v in r for _ in range(scale))
        out += line * scale
    return bytes(out), width * scale, len(rows) * scale


def decode(pixels: bytes, width: int, height: int) -> list[str]:
    """The texts of the QR codes zbar finds in an 8-bit grey picture."""
    from pyzbar import pyzbar

    return [s.data.decode("utf-8") for s in pyzbar.decode((pixels, width, height), symbols=[pyzbar.ZBarSymbol.QRCODE])]


#: a dark terminal (light grey text on black) and a light one (black text on white)
DARK = (200, 0)
LIGHT = (0, 255)


def decode_terminal(text: str, scheme: tuple[int, int]) -> list[str]:
    return decode(*terminal_pixels(text, *scheme))


def decode_image_in_page(page, selector: str) -> list[str]:
    """The QR codes in an ``<img>`` of a page, read from its pixels as the browser draws them."""
    grey = page.evaluate("""(selector) => {
      const img = document.querySelector(selector);
      const scale = 3, w = img.naturalWidth * scale, h = img.naturalHeight * scale;
      const canvas = document.createElement("canvas");
      canvas.width = w; canvas.height = h;
      const g = canvas.getContext("2d");
      g.imageSmoothingEnabled = false;
      g.fillStyle = "#fff"; g.fillRect(0, 0, w, h);
      g.drawImage(img, 0, 0, w, h);
      const rgba = g.getImageData(0, 0, w, h).data, out = new Array(w * h);
      for (let i = 0; i < w * h; i++) out[i] = Math.round((rgba[4 * i] + rgba[4 * i + 1] + rgba[4 * i + 2]) / 3);
      return { w, h, out };
    }""", selector)
    return decode(bytes(grey["out"]), grey["w"], grey["h"])
