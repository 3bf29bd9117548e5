"""pymdownx.keys, ``++ctrl+alt+del++``, as the page shows it: the keys' names joined by the
extension's separator (``Ctrl+Alt+Del``), on a site whose ``markdown_extensions`` enable it.
Textual's guide writes 103 of them; the store held the ``++`` markup.

The names are the extension's own English key map (``pymdownx/keymap_db.py``, pymdown-extensions
10, MIT): a key it does not know, in the map or the site's ``key_map``, leaves the whole run as
written, as the extension does. A quoted key (``++"Hello"++``) shows its text. Read outside
inline code only (the mkdocs line pass), by a scan that reads each ``++`` once: linear.
"""

from __future__ import annotations

import re

CONSTRUCT = "keys"

# Keys shown as their name's words capitalised (``page-up`` is ``Page Up``).
_TITLED = """
    0 1 2 3 4 5 6 7 8 9 a b c d e f g h i j k l m n o p q r s t u v w x y z space page-up page-down
    home end backspace tab break caps-lock clear eject enter help print-screen scroll-lock num-clear
    num-lock num-enter alt left-alt left-command left-meta left-option left-shift left-super meta
    option right-alt right-command right-meta right-option right-shift right-super shift super f1 f2
    f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19 f20 f21 f22 f23 f24 browser-back
    browser-favorites browser-forward browser-home browser-refresh browser-search browser-stop copy
    mail media print reset select sleep volume-down volume-up zoom power fingerprint left-button
    middle-button right-button
""".split()
# Keys shown otherwise.
_NAMED = {
    'backslash': '\\', 'bar': '|', 'brace-left': '{', 'brace-right': '}', 'bracket-left': '[',
    'bracket-right': ']', 'colon': ':', 'comma': ',', 'double-quote': '"', 'equal': '=', 'exclam':
    '!', 'grave': '`', 'greater': '>', 'less': '<', 'minus': '-', 'period': '.', 'plus': '+',
    'question': '?', 'semicolon': ';', 'single-quote': "'", 'slash': '/', 'tilde': '~',
    'underscore': '_', 'arrow-up': 'Up', 'arrow-down': 'Down', 'arrow-left': 'Left', 'arrow-right':
    'Right', 'delete': 'Del', 'insert': 'Ins', 'escape': 'Esc', 'num0': 'Num 0', 'num1': 'Num 1',
    'num2': 'Num 2', 'num3': 'Num 3', 'num4': 'Num 4', 'num5': 'Num 5', 'num6': 'Num 6', 'num7':
    'Num 7', 'num8': 'Num 8', 'num9': 'Num 9', 'num-asterisk': 'Num *', 'num-delete': 'Num Del',
    'num-equal': 'Num =', 'num-minus': 'Num -', 'num-plus': 'Num +', 'num-separator': 'Num .',
    'num-slash': 'Num /', 'alt-graph': 'AltGr', 'command': 'Cmd', 'control': 'Ctrl', 'function':
    'Fn', 'left-control': 'Left Ctrl', 'left-windows': 'Left Win', 'right-control': 'Right Ctrl',
    'right-windows': 'Right Win', 'windows': 'Win', 'backtab': 'Back Tab', 'context-menu': 'Menu',
    'media-next-track': 'Next Track', 'media-pause': 'Pause', 'media-play': 'Play',
    'media-play-pause': 'Play/Pause', 'media-prev-track': 'Previous Track', 'media-stop': 'Stop',
    'volume-mute': 'Mute', 'x-button1': 'X Button 1', 'x-button2': 'X Button 2',
}
# Other names for a key, ``alias=key``.
_ALIASES = dict(pair.split("=", 1) for pair in """
    add=num-plus altgr=alt-graph apps=context-menu back=backspace bksp=backspace bktab=backtab
    cancel=break capital=caps-lock close-brace=brace-right close-bracket=bracket-right clr=clear
    cmd=command cplk=caps-lock ctrl=control dblquote=double-quote decimal=num-separator del=delete
    divide=num-slash down=arrow-down esc=escape return=enter exclamation=exclam
    favorites=browser-favorites fn=function forward=browser-forward grave-accent=grave
    greater-than=greater gt=greater hyphen=minus ins=insert lalt=left-alt launch-mail=mail
    launch-media=media lbutton=left-button lcmd=left-command lcommand=left-command
    lcontrol=left-control lctrl=left-control left=arrow-left left-cmd=left-command
    left-ctrl=left-control lopt=left-option loption=left-option left-opt=left-option
    left-win=left-windows less-than=less lmeta=left-meta lshift=left-shift lsuper=left-super lt=less
    lwin=left-windows lwindows=left-windows mbutton=middle-button menu=context-menu
    multiply=num-asterisk mute=volume-mute next=page-down next-track=media-next-track
    num-del=num-delete numlk=num-lock open-brace=brace-left open-bracket=bracket-left opt=option
    page-dn=page-down page-up=page-up pause=media-pause pg-dn=page-down pg-up=page-up pipe=bar
    play=media-play play-pause=media-play-pause prev-track=media-prev-track prior=page-up
    prtsc=print-screen question-mark=question ralt=right-alt rbutton=right-button
    rcontrol=right-control rcmd=right-command rcommand=right-command rctrl=right-control
    refresh=browser-refresh right=arrow-right right-cmd=right-command right-ctrl=right-control
    right-meta=right-meta right-opt=right-option right-win=right-windows rmeta=right-meta
    ropt=right-option roption=right-option rshift=right-shift rsuper=right-super rwin=right-windows
    rwindows=right-windows scroll=scroll-lock search=browser-search separator=num-separator
    spc=space stop=media-stop subtract=num-minus tabulator=tab up=arrow-up vol-down=volume-down
    vol-mute=volume-mute vol-up=volume-up win=windows xbutton1=x-button1 xbutton2=x-button2
""".split())
KEYMAP = {**{k: " ".join(w.capitalize() for w in k.split("-")) for k in _TITLED}, **_NAMED}
_KEY = re.compile(r"[\w-]+")


class Keys:
    """One site's reading: its separator, its camel-case setting and its extra keys."""

    def __init__(self, options: dict) -> None:
        separator = options.get("separator", "+")
        self.separator = separator if isinstance(separator, str) else "+"
        self.camel = options.get("camel_case") is True
        extra = options.get("key_map")
        self.map = {**KEYMAP, **{str(k): str(v) for k, v in extra.items()}} if isinstance(extra, dict) else KEYMAP

    def name(self, key: str) -> str | None:
        """What the page shows for one key, or None for a key the map does not hold."""
        if key[:1] in "\"'":
            return re.sub(r"\\(.)", r"\1", key[1:-1]).strip()
        if self.camel:
            key = _camel(key)
        key = _ALIASES.get(key, key)
        return self.map.get(key)

    def read(self, text: str) -> str:
        """``text`` (prose, no code span) with every run of keys the extension draws as its
        names. A run is ``++``, keys joined by single ``+``, ``++``; one that does not close, or
        holds an unknown key, stays as written and the scan goes on after its opening ``++``."""
        out: list[str] = []
        done = at = 0
        missing: dict[str, int] = {}  # a quote searched for and not found, from where
        while (start := text.find("++", at)) != -1:
            names, end = self._run(text, start + 2, missing)
            if names is None:
                at = start + 1 if end <= start + 2 else end
                continue
            out += (text[done:start], self.separator.join(names))
            done = at = end
        return "".join(out) + text[done:] if out else text

    def _run(self, text: str, i: int, missing: dict[str, int]) -> tuple[list[str] | None, int]:
        """The names of the keys from ``i`` and where the run ends past its ``++``; (None, where
        reading stopped) when it is no run."""
        names: list[str] = []
        n = len(text)
        while True:
            if i < n and text[i] in "\"'":
                close = _closing_quote(text, i, missing)
                if close < 0:
                    return None, i
                key, i = text[i : close + 1], close + 1
            else:
                m = _KEY.match(text, i)
                if m is None:
                    return None, i
                key, i = m.group(0), m.end()
            name = self.name(key)
            if not name:
                return None, i
            names.append(name)
            if text.startswith("++", i):
                return names, i + 2
            if not text.startswith("+", i):
                return None, i
            i += 1


def _camel(key: str) -> str:
    """``PgUp`` as ``pg-up``: an upper-case letter is lowered, after a ``-`` unless it starts
    the name or follows one (the extension's ``camel_case`` rule)."""
    out: list[str] = []
    last = ""
    for c in key:
        if c.isupper():
            out.append(c.lower() if not last or last == "-" else "-" + c.lower())
        else:
            out.append(c)
        last = c
    return "".join(out)


def _closing_quote(text: str, i: int, missing: dict[str, int]) -> int:
    """Where the quoted key opening at ``text[i]`` closes (backslash escapes skipped), or -1;
    a quote that closes nowhere past a point is not searched for again from beyond it."""
    quote = text[i]
    if i >= missing.get(quote, len(text)):
        return -1
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            return j
        j += 1
    missing[quote] = i
    return -1
