"""The confined child's side of ``python3 -m eddi run --sandbox``.

eddi-sandbox has confined this process before Python started; its only
channel to eddi is the two inherited pipes, relayed by the runner
(eddi/sandbox.py).  The script runs here with ``ws`` bound over them, and
its failure is reported as a trusted script's is: the engine's refusal, or
a traceback of the script's own lines.
"""

import sys

from .runner import LocalRunner, ScriptFailed
from .workspace import Workspace
from .client import Connection



def main(read_fd, write_fd, script, argv):
    """Run script (the runner's copy) with ws over the pipes in the session
    the runner named (argv[0]), the script named as the runner's caller
    named it (argv[1]); the exit status."""
    session, name, argv = argv[0], argv[1], argv[2:]
    workspace = Workspace(Connection.over(read_fd, write_fd), None, sender="sandbox",
                          session=session)
    workspace.collect_only = True
    workspace.start()
    try:
        LocalRunner(workspace).run(script, argv, name=name)
    except ScriptFailed as failure:
        sys.stderr.write(failure.report)
        return 1
    return 0
