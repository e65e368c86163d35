"""The packaged extension holds what VS Code loads: the manifest with the
MCP provider and the commands, and the compiled code; nothing else of the
tree (sources, tests, node_modules)."""
import json
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as vsix:
    names = sorted(vsix.namelist())
    manifest = json.loads(vsix.read("extension/package.json"))

expected = [
    "[Content_Types].xml",
    "extension.vsixmanifest",
    "extension/out/core.js",
    "extension/out/extension.js",
    "extension/package.json",
    "extension/readme.md",
]
if names != expected:
    sys.exit(f"the .vsix holds {names}, not {expected}")
contributes = manifest["contributes"]
if contributes["mcpServerDefinitionProviders"] != [{"id": "eddi.mcpServers", "label": "eddi"}]:
    sys.exit(f"mcpServerDefinitionProviders: {contributes['mcpServerDefinitionProviders']}")
commands = [command["command"] for command in contributes["commands"]]
if commands != ["eddi.renameSymbol", "eddi.previewRefactor", "eddi.undo", "eddi.status"]:
    sys.exit(f"commands: {commands}")
print(f"{sys.argv[1]}: {len(names)} files, the provider and {len(commands)} commands")
