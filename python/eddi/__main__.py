"""python3 -m eddi shell DIR | run [--sandbox [--apply]] SCRIPT DIR [ARG...]

shell: an interactive Python with ``ws`` (the workspace of DIR) and
``eddi`` bound, tab completion from rlcompleter.  run: a script with the
same names bound; its failure is printed with its own line numbers and the
exit status is 1.  run --sandbox: a script one does not trust, confined by
the kernel (eddi/sandbox.py), reading the workspace through eddi only, its
changesets collected: shown on stderr, written only with --apply; exit
status 125 when the sandbox cannot be set up (nothing ran).
"""

import argparse
import code
import sys

import eddi
from eddi.runner import LocalRunner, ScriptFailed
from eddi.sandbox import SANDBOX_FAILED, SANDBOX_SENDER, SandboxRunner, SandboxUnavailable

BANNER = """eddi {version} on {root} (session {session}).
ws is the workspace: ws.files("**/*.py").classes(), ws.changeset("name"), ws.undo().
help(ws) lists the rest; Ctrl-D ends."""


def _options(parser):
    parser.add_argument("--server", help="the eddi-server to run (default: $EDDI_SERVER, PATH)")
    parser.add_argument("--no-journal", action="store_true",
                        help="run the server with --no-journal")


def _open(args):
    if getattr(args, "attach", None):
        # The server's python.run: everything this side does is the
        # sandbox's (SandboxRunner's calls), in the session the script
        # starts, so a server with --allow needs only sandbox allowed.
        read_fd, write_fd = args.attach
        return eddi.Workspace(eddi.Connection.over(read_fd, write_fd), args.root,
                              sender=SANDBOX_SENDER)
    return eddi.open(args.root, server=args.server, journal=not args.no_journal)


def _descriptors(text):
    """--attach R,W: two inherited descriptors, read and write."""
    try:
        read_fd, write_fd = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--attach takes two descriptors, R,W: not {text!r}")
    return read_fd, write_fd


def shell(args):
    with _open(args) as ws:
        namespace = {"ws": ws, "eddi": eddi}
        try:
            import readline
            import rlcompleter

            readline.set_completer(rlcompleter.Completer(namespace).complete)
            readline.parse_and_bind("tab: complete")
        except ImportError:  # no readline: the shell works, without completion
            pass
        banner = BANNER.format(version=eddi.__version__, root=args.root, session=ws.session)
        code.interact(banner=banner, local=namespace, exitmsg="")
    return 0


def _shown(collected, apply):
    """Each changeset the sandboxed script collected, on stderr (stdout is
    the script's): its summary and diff; all of them applied with apply."""
    for changeset in collected:
        sys.stderr.write(f"eddi: the script collected {changeset.summary}\n{changeset.diff}")
        if changeset.diff and not changeset.diff.endswith("\n"):
            sys.stderr.write("\n")
    if not apply:
        sys.stderr.write("eddi: nothing was written; run again with --apply to write "
                         f"{'it' if len(collected) == 1 else 'them'}\n")
        return ()
    return collected


def run_sandboxed(args):
    try:
        with _open(args) as ws:
            runner = SandboxRunner(ws, sandbox=args.sandbox_program, server=args.server,
                                   cpu_seconds=args.cpu, timeout_seconds=args.timeout)
            status = runner.run(args.script, args.args,
                                decide=lambda collected: _shown(collected, args.apply))
            for changeset in runner.collected:
                if changeset.applied:
                    sys.stderr.write(f"eddi: {changeset.applied}\n")
            return status
    except SandboxUnavailable as why:
        sys.stderr.write(f"eddi: the script was not run: {why}\n")
        return SANDBOX_FAILED


def run(args):
    if args.sandbox:
        return run_sandboxed(args)
    with _open(args) as ws:
        try:
            LocalRunner(ws).run(args.script, args.args)
        except ScriptFailed as failure:
            sys.stderr.write(failure.report)
            return 1
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m eddi", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    shell_parser = commands.add_parser("shell", help="an interactive Python with ws bound")
    shell_parser.add_argument("root", metavar="DIR")
    _options(shell_parser)
    run_parser = commands.add_parser("run", help="run a Python script with ws bound")
    run_parser.add_argument("script")
    run_parser.add_argument("root", metavar="DIR")
    run_parser.add_argument("args", nargs="*", help="the script's sys.argv[1:]")
    run_parser.add_argument("--sandbox", action="store_true",
                            help="confine the script (for one you do not trust)")
    run_parser.add_argument("--apply", action="store_true",
                            help="with --sandbox: write the changesets the script collected "
                                 "(by default they are shown, and dropped)")
    run_parser.add_argument("--attach", type=_descriptors, metavar="R,W",
                            help="talk to the server that started this over two inherited "
                                 "descriptors instead of starting one (eddi-server's python.run)")
    run_parser.add_argument("--sandbox-program", help="eddi-sandbox (default: $EDDI_SANDBOX, "
                            "beside eddi-server, PATH)")
    run_parser.add_argument("--cpu", type=int, help="the sandbox's CPU seconds (default 10)")
    run_parser.add_argument("--timeout", type=int, default=SandboxRunner.TIMEOUT_SECONDS,
                            help="the sandboxed script's seconds by the clock (default 60)")
    _options(run_parser)
    args = parser.parse_args(argv)
    try:
        return shell(args) if args.command == "shell" else run(args)
    except eddi.EddiError as error:
        sys.stderr.write(f"eddi: {error}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
