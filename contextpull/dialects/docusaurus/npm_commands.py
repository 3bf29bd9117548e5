"""npm commands as another package manager writes them: the conversion the ``npm-to-yarn``
library (3.0) makes for Docusaurus's ``npm2yarn`` tabs, for Yarn, pnpm and Bun. The site shows
the converted block in each tab, so the store does too.

Each ``npm`` in the block, followed by its arguments up to ``&`` or the line's end, is converted
by the library's tables: ``npm install x`` -> ``yarn add x`` / ``pnpm add x`` / ``bun add x``,
``npm i -D x`` -> ``yarn add --dev x``, ``npm run build`` -> ``yarn build``, ``npm test -- -u`` ->
``yarn test -u``, ``npm init x@latest`` -> ``yarn create x``; a block that names ``npx`` has its
first ``npx`` (or another manager's runner) replaced by the manager's runner (``yarn dlx``) and
nothing else, as the library does.
Where the library would write ``# couldn't auto-convert command`` (a command its tables do not
have), and where ``npm`` is part of a longer word (``pnpm``, ``npmjs.com``), the block is not
understood here: ``convert`` says None and the caller shows the npm tab alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# The library's pattern: ``npm``, then its arguments up to ``&`` or the end of the line.
_NPM = re.compile(r"npm(?: +([^&\n\r]*))?")
_EXECUTORS = {"yarn": "yarn dlx", "pnpm": "pnpm dlx", "bun": "bun x"}
_UNCHANGED = ("test", "login", "logout", "link", "unlink", "publish", "cache", "start", "stop")
_YARN_COMMANDS = frozenset((
    "init", "run", "add", "audit", "autoclean", "bin", "check", "config", "create", "dedupe",
    "generate-lock-entry", "global", "help", "import", "info", "install", "licenses", "list",
    "lockfile", "outdated", "owner", "pack", "policies", "prune", "remove", "self-update", "tag",
    "team", "upgrade", "upgrade-interactive", "version", "versions", "why", "workspace", "workspaces"))
_YARN_FLAGS = {"--save-dev": "--dev", "-D": "--dev", "--save-prod": "--production", "-P": "--production",
               "--no-package-lock": "--no-lockfile", "--save-optional": "--optional", "-O": "--optional",
               "--save-exact": "--exact", "-E": "--exact", "--save": "", "-S": "", "--global": "", "-g": ""}
_PNPM_FLAGS = {"--save": "", "-S": "", "--no-package-lock": "--frozen-lockfile"}
_BUN_FLAGS = {"--save-dev": "--dev", "--development": "--dev", "-D": "--dev", "--save-prod": "--production",
              "-P": "--production", "--no-package-lock": "--no-save", "--save-optional": "--optional",
              "-O": "--optional", "--save-exact": "--exact", "-E": "--exact", "--save": "", "-S": "",
              "--global": "--global", "-g": "--global"}
_REMOVE = ("uninstall", "un", "remove", "r", "rm")


def convert(code: str, to: str) -> str | None:
    """The block ``code`` as ``to`` (``yarn``, ``pnpm``, ``bun``) writes it, or None."""
    runner = next((r for r in ("npx", "yarn dlx", "pnpm dlx", "bun x") if r in code), None)
    if runner is not None:  # the library converts the runner alone in such a block
        return code.replace(runner, _EXECUTORS[to], 1)
    table = _CONVERTERS[to]
    out: list[str] = []
    last = 0
    for m in _NPM.finditer(code):
        before = code[m.start() - 1] if m.start() else " "
        after = code[m.end(): m.end() + 1]
        if not (before.isspace() or before in "(;|&") or (m.group(1) is None and after not in ("", "\n", "\r", "&", " ")):
            return None  # ``npm`` inside a word
        command = (m.group(1) or "").strip()
        converted = table(_arguments(command)) if command else None
        if converted is None:
            return None
        trailing = (m.group(1) or "")[len((m.group(1) or "").rstrip()):]
        out += [code[last:m.start()], converted, trailing]
        last = m.end()
    out.append(code[last:])
    return "".join(out)


def _arguments(command: str) -> list[str]:
    """The library's split: at spaces outside quotes, a backslash escaping the next quote."""
    args: list[str] = []
    part: list[str] = []
    quote = ""
    escaped = False
    for char in command:
        if char == "\\":
            part.append(char)
            escaped = True
            continue
        if char == " " and not quote:
            args.append("".join(part))
            part = []
        else:
            if not escaped and char in "\"'":
                quote = "" if char == quote else (quote or char)
            part.append(char)
        escaped = False
    args.append("".join(part))
    if "--" in args:
        args.remove("--")
    return args


def _joined(manager: str, args: list[str]) -> str:
    return manager + " " + " ".join(a for a in args if a)


def _create(args: list[str]) -> list[str]:
    """``npm init x`` and ``npm create x@latest`` as ``create x``."""
    if len(args) > 1 and not args[1].startswith("-"):
        args[0] = "create"
        if "@latest" in args[1][1:]:
            args[1] = args[1][: args[1].rindex("@latest")]
    return [a for a in args if a != "--scope"]


def _yarn(args: list[str]) -> str | None:
    head = args[0]
    if head in _UNCHANGED:
        return _joined("yarn", args)
    if head in ("install", "i"):
        if len(args) == 1:
            return "yarn install"
        return _joined("yarn", _global(["add", *args[1:]]))
    if head in _REMOVE:
        return _joined("yarn", _global(["remove", *args[1:]]))
    if head in ("run", "exec"):
        args[0] = "run"
        if len(args) > 1 and args[1] not in _UNCHANGED and args[1] not in _YARN_COMMANDS:
            args = args[1:]
        return _joined("yarn", args)
    if head in ("init", "create"):
        return _joined("yarn", _create(args))
    if head in ("rebuild", "rb"):
        return _joined("yarn", ["add", *args[1:], "--force"])
    if head == "version":
        return _joined("yarn", [f"--{a}" if a in ("major", "minor", "patch") else a for a in args])
    renamed = {"ln": "link", "t": "test", "tst": "test", "outdated": "outdated"}.get(head)
    return None if renamed is None else _joined("yarn", [renamed, *args[1:]])


def _global(args: list[str]) -> list[str]:
    """Yarn's install flags; ``-g`` makes it ``yarn global add``."""
    mapped = [_YARN_FLAGS.get(a, a) for a in args]
    return ["global", *mapped] if "-g" in args or "--global" in args else mapped


def _pnpm(args: list[str]) -> str | None:
    head = args[0]
    if head in ("install", "i"):
        if len(args) > 1 and sum(not a.startswith("-") for a in args) > 1:
            args[0] = "add"
        return _joined("pnpm", [_PNPM_FLAGS.get(a, a) for a in args])
    if head in _REMOVE:
        return _joined("pnpm", ["remove", *(_PNPM_FLAGS.get(a, a) for a in args[1:])])
    if head in ("init", "create"):
        return _joined("pnpm", _create(args))
    if head in ("run", "exec", "start", "link", "outdated", "test"):
        return _joined("pnpm", args)
    renamed = {"ln": "link", "t": "test", "tst": "test"}.get(head)
    return None if renamed is None else _joined("pnpm", [renamed, *args[1:]])


def _bun(args: list[str]) -> str | None:
    head = args[0]
    runner = "bun"
    if head in ("install", "i"):
        args = ["install"] if len(args) == 1 else [_BUN_FLAGS.get(a, a) for a in ["add", *args[1:]]]
    elif head in _REMOVE:
        args = [_BUN_FLAGS.get(a, a) for a in ["remove", *args[1:]]]
    elif head in ("test", "t", "tst"):
        args = ["run", "test", *args[1:]]
    elif head in ("init", "create") and len(args) > 1:
        if args[1].startswith("-"):
            args[0] = "init"
        else:
            runner = "bunx"
            name = args[1].replace("/", "/create-", 1) if args[1].startswith("@") else "create-" + args[1].replace("@latest", "", 1)
            args = [name, *args[2:]]
    elif head == "exec":
        runner, args = "bunx", args[1:]
    elif head not in ("run", "start", "stop", "unlink", "init", "create"):
        return None
    return _joined(runner, args).replace("=", " ", 1)


_CONVERTERS: dict[str, Callable[[list[str]], str | None]] = {"yarn": _yarn, "pnpm": _pnpm, "bun": _bun}
MANAGERS = tuple(_CONVERTERS)
