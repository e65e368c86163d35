// extension.ts - eddi in VS Code.
//
// Two things, on one eddi-server program:
// - the MCP server definition provider: VS Code's chat spawns eddi-server
//   --stdio --root <folder> for each workspace folder, with no mcp.json
//   written by hand; the program is found here (the eddi.serverPath
//   setting, else PATH), so the PATH VS Code was started with does not
//   decide it silently;
// - commands for people, on a process of their own: Rename Symbol (eddi)
//   and Preview Refactor (eddi) show eddi's preview in a diff editor and
//   apply it through eddi's transaction (all files or none; VS Code
//   reloads the files from disk),
//   Undo eddi Change takes the last change back over all its files, and a
//   status bar item names eddi's session.
import * as vscode from "vscode";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  EddiConnection,
  EddiError,
  REFACTOR_OPERATIONS,
  applyRefactor,
  findServer,
  previewRefactor,
  renameArguments,
  serverDefinition,
  sessionLabel,
  undoLast,
  type RefactorArguments,
  type RefactorPreview,
} from "./core";

const PROVIDER_ID = "eddi.mcpServers";
const PREVIEW_SCHEME = "eddi-preview";

let connection: EddiConnection | undefined;
let connectedFolder: string | undefined;
let statusItem: vscode.StatusBarItem;
const previewTexts = new Map<string, string>();

function serverPath(): string {
  const setting = vscode.workspace.getConfiguration("eddi").get<string>("serverPath");
  const found = findServer(setting, process.env.PATH);
  if (!found)
    throw new EddiError("eddi-server not found: set eddi.serverPath to its absolute path, or put it on the PATH VS Code starts with");
  return found;
}

function folderOf(uri?: vscode.Uri): vscode.WorkspaceFolder {
  const folder = (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new EddiError("eddi works on a workspace folder: open one first");
  return folder;
}

/** The commands' own eddi-server, over the folder (started again for another). */
async function connect(folder: vscode.WorkspaceFolder): Promise<EddiConnection> {
  if (connection && connectedFolder === folder.uri.fsPath) return connection;
  connection?.close();
  connection = await EddiConnection.open(serverPath(), folder.uri.fsPath);
  connectedFolder = folder.uri.fsPath;
  return connection;
}

async function refreshStatus(): Promise<void> {
  statusItem.text = connection ? await sessionLabel(connection) : "eddi";
  statusItem.show();
}

/** Run a command's body; an EddiError is shown as eddi said it. */
function guarded(body: () => Promise<void>): () => Promise<void> {
  return async () => {
    try {
      await body();
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(text);
    } finally {
      await refreshStatus().catch(() => undefined);
    }
  };
}

/** Show each changed file's before and after in a diff editor. */
async function showPreview(folder: vscode.WorkspaceFolder, preview: RefactorPreview, title: string): Promise<void> {
  const changes: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
  for (const file of preview.files) {
    const left = vscode.Uri.file(join(folder.uri.fsPath, file.path));
    const right = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: "/" + file.path, query: String(Date.now()) });
    previewTexts.set(right.toString(), file.after);
    changes.push([left, left, right]);
  }
  if (changes.length === 1)
    await vscode.commands.executeCommand("vscode.diff", changes[0][1], changes[0][2], `${title}: ${preview.files[0].path}`);
  else await vscode.commands.executeCommand("vscode.changes", title, changes);
}

/** Preview args in a diff editor; on Apply, run them through eddi's transaction. */
async function previewThenApply(folder: vscode.WorkspaceFolder, args: RefactorArguments, title: string): Promise<void> {
  // eddi reads the files from disk: VS Code's unsaved edits would be lost.
  if (vscode.workspace.textDocuments.some((document) => document.isDirty))
    throw new EddiError("Save your files first: eddi refactors the files as they are on disk");
  const eddi = await connect(folder);
  const preview = await previewRefactor(eddi, args, (file) => readFile(join(folder.uri.fsPath, file), "utf8"));
  await showPreview(folder, preview, title);
  const apply = `Apply to ${preview.files.length} file${preview.files.length === 1 ? "" : "s"}`;
  const answer = await vscode.window.showInformationMessage(preview.summary, { modal: true }, apply);
  if (answer !== apply) return;
  void vscode.window.showInformationMessage(await applyRefactor(eddi, args));
}

async function renameSymbol(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new EddiError("Rename Symbol (eddi) renames the symbol at the cursor: open a file first");
  const folder = folderOf(editor.document.uri);
  const range = editor.document.getWordRangeAtPosition(editor.selection.active);
  if (!range) throw new EddiError("Rename Symbol (eddi) renames the name at the cursor: put the cursor on one");
  const word = editor.document.getText(range);
  const newName = await vscode.window.showInputBox({ prompt: `Rename ${word} to`, value: word });
  if (!newName || newName === word) return;
  const position = range.start;
  const path = vscode.workspace.asRelativePath(editor.document.uri, false);
  const target = `${path}:${position.line}:${position.character}`;
  await previewThenApply(folder, renameArguments(target, newName), `Rename ${word} to ${newName} (eddi)`);
}

/** Any of eddi's refactorings: the operation, its target and its new name asked for. */
async function previewRefactorCommand(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const folder = folderOf(editor?.document.uri);
  const operation = await vscode.window.showQuickPick(REFACTOR_OPERATIONS, { placeHolder: "eddi refactoring" });
  if (!operation) return;
  const range = editor?.document.getWordRangeAtPosition(editor.selection.active);
  const suggested = editor && range ? editor.document.getText(range) : "";
  const target = await vscode.window.showInputBox({
    prompt: `${operation}: the target (a name, Class.method, path:line:col; Extract_Method: path.py:A:B)`,
    value: suggested,
  });
  if (!target) return;
  const newName = await vscode.window.showInputBox({ prompt: `${operation}: the new name or form (empty for none)` });
  if (newName === undefined) return;
  const args: RefactorArguments = newName ? { operation, target, new_name: newName } : { operation, target };
  await previewThenApply(folder, args, `${operation} ${target} (eddi)`);
}

async function showStatus(): Promise<void> {
  const eddi = await connect(folderOf(vscode.window.activeTextEditor?.document.uri));
  void vscode.window.showInformationMessage(await eddi.speak("Status").catch((error: Error) => error.message));
}

async function undoChange(): Promise<void> {
  const eddi = await connect(folderOf(vscode.window.activeTextEditor?.document.uri));
  void vscode.window.showInformationMessage(await undoLast(eddi));
}

export function activate(context: vscode.ExtensionContext): void {
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        let server: string;
        try {
          server = serverPath();
        } catch (error) {
          void vscode.window.showWarningMessage(error instanceof Error ? error.message : String(error));
          return [];
        }
        return (vscode.workspace.workspaceFolders ?? []).map((folder) => {
          const definition = serverDefinition(server, folder.uri.fsPath);
          const label = vscode.workspace.workspaceFolders!.length > 1 ? `eddi (${folder.name})` : definition.label;
          return new vscode.McpStdioServerDefinition(label, definition.command, definition.args);
        });
      },
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("eddi.serverPath")) changed.fire();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      provideTextDocumentContent: (uri) => previewTexts.get(uri.toString()) ?? "",
    }),
    vscode.commands.registerCommand("eddi.renameSymbol", guarded(renameSymbol)),
    vscode.commands.registerCommand("eddi.previewRefactor", guarded(previewRefactorCommand)),
    vscode.commands.registerCommand("eddi.undo", guarded(undoChange)),
    vscode.commands.registerCommand("eddi.status", guarded(showStatus)),
    { dispose: () => connection?.close() },
  );
  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left);
  statusItem.command = "eddi.status";
  statusItem.tooltip = "eddi's session: click for its status";
  context.subscriptions.push(statusItem);
  void refreshStatus();
}

export function deactivate(): void {
  connection?.close();
  connection = undefined;
}
