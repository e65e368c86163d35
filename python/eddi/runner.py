"""Running a script against a workspace.

``python3 -m eddi run script.py DIR`` runs a trusted script in this
process with ``ws`` bound.  A runner is the one place that decides where
a script runs and what it may reach: :class:`LocalRunner` runs it here,
with the user's rights; :class:`eddi.sandbox.SandboxRunner` starts a
confined child whose only channel to eddi is an inherited pipe, and gives
it the same ``ws``.  Both report a
script's failure the same way: the engine's refusal as it said it, or a
traceback whose frames are the script's own lines.
"""

import os
import sys
import traceback

from .errors import Refused

__all__ = ["LocalRunner", "ScriptFailed", "format_failure"]

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


class ScriptFailed(Exception):
    """A script raised; ``report`` says what and where, in its own lines."""

    def __init__(self, report, error):
        super().__init__(report)
        self.report = report
        self.error = error


def format_failure(error, script_path):
    """The report of a script's exception: for a refusal the engine's
    words (and the operation), then the traceback from the script's first
    frame on (the runner's own frames left out)."""
    frames = traceback.extract_tb(error.__traceback__)
    start = next((i for i, f in enumerate(frames) if f.filename == script_path), 0)
    # Past the script, the frames of this package are how it asked eddi,
    # not where the script went wrong: they are left out.
    frames = [f for f in frames[start:] if not f.filename.startswith(_PACKAGE)]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    if isinstance(error, Refused):
        lines.append(f"eddi said: {error.reply}\n")
        if error.operation:
            lines.append(f"in the operation: {error.operation}\n")
        if error.place:
            lines.append(f"at: {error.place}\n")
    return "".join(lines)


class LocalRunner:
    """Runs a script in this process, as the user: for scripts one trusts."""

    def __init__(self, workspace):
        self.workspace = workspace

    def namespace(self, path):
        import eddi

        return {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__,
                "ws": self.workspace, "eddi": eddi}

    def run(self, path, argv=(), name=None):
        """Run the file at path, named name in tracebacks and sys.argv
        (default: path); ScriptFailed when it raises."""
        name = name or path
        with open(path, encoding="utf-8") as f:
            source = f.read()
        code = compile(source, name, "exec")
        saved = sys.argv
        sys.argv = [name, *argv]
        try:
            exec(code, self.namespace(name))
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise ScriptFailed(f"{name} exited with status {stop.code}\n", stop) from None
        except Exception as error:  # every failure of the script is reported, none escapes
            raise ScriptFailed(format_failure(error, name), error) from None
        finally:
            sys.argv = saved
